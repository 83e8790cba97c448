import Foundation
import HaleClient
import HaleTesting
import Testing

/// Seed 002's device registration and sign-in, as an iOS app makes them, against a running `hale serve`.
struct ProcessDeviceSignIn {
    let key = SoftwareDeviceKey()
    let fingerprint = "iOS-17.4-iPhone15,2-FaceID-\(UUID().uuidString.prefix(8))"

    static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Registers the key for the account `token` signs in as; returns the device's id.
    func register(on server: RunningHale, bearer token: String) async throws -> String {
        let issued = try await server.request(
            "POST", "api/v1/devices/register/challenge", bearer: token,
            json: try Self.json([
                "deviceName": "Test iPhone", "deviceType": "mobile", "deviceFingerprint": fingerprint,
                "publicKey": key.publicKeyPEM, "keyAlgorithm": "ES256",
            ]))
        #expect(issued.status == 200)
        let registration = try Self.object(issued.body)
        let registered = try await server.request(
            "POST", "api/v1/devices/register/verify", bearer: token,
            json: try Self.json([
                "sessionId": try #require(registration["sessionId"] as? String),
                "signedChallenge": try key.sign(
                    challenge: try #require(registration["challenge"] as? String), convention: .iOS),
            ]))
        #expect(registered.status == 200)
        return try #require(registration["deviceId"] as? String)
    }

    /// Signs in with the key; returns the token pair's JSON.
    func signIn(on server: RunningHale) async throws -> [String: Any] {
        let challenge = try Self.object(
            try await server.request(
                "POST", "api/v1/auth/biometric/challenge", json: try Self.json(["deviceFingerprint": fingerprint])
            ).body)
        let signedIn = try await server.request(
            "POST", "api/v1/auth/biometric/verify",
            json: try Self.json([
                "sessionId": try #require(challenge["sessionId"] as? String),
                "signedChallenge": try key.sign(
                    challenge: try #require(challenge["challenge"] as? String), convention: .iOS),
                "rememberMe": true,
            ]))
        #expect(signedIn.status == 200)
        return try #require(try Self.object(signedIn.body)["tokens"] as? [String: Any])
    }
}
