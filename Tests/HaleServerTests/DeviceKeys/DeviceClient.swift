import Crypto
import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting
import _CryptoExtras

@testable import HaleServer

/// The three client flavours of seed 002, each with a real key made by swift-crypto, exporting its public key and
/// signing challenges exactly as that app does.
enum DeviceFlavour: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Native iOS: P-256, PEM wrapped at 64, signs SHA-256(challenge) with a message algorithm (hashed twice).
    case iOS
    /// Native Android: P-256, PEM as `Base64.DEFAULT` writes it (76-column lines), SHA256withECDSA.
    case android
    /// React Native on Android: an RSA-2048 key declared as "ES256", SHA256withRSA.
    case reactNativeAndroid

    var testDescription: String { rawValue }
}

/// One installation of an app: its key, fingerprint and flavour.
struct DeviceClient: Sendable {
    let flavour: DeviceFlavour
    let fingerprint: String
    private let p256: SoftwareDeviceKey
    private let rsa: _RSA.Signing.PrivateKey?

    init(_ flavour: DeviceFlavour, fingerprint: String = "iOS-17.4-iPhone-FaceID-\(UUID().uuidString.prefix(8))")
        throws
    {
        self.flavour = flavour
        self.fingerprint = fingerprint
        p256 = SoftwareDeviceKey()
        rsa = flavour == .reactNativeAndroid ? try _RSA.Signing.PrivateKey(keySize: .bits2048) : nil
    }

    var publicKeyPEM: String {
        switch flavour {
        case .iOS:
            return p256.publicKeyPEM
        case .android:
            let body = Self.wrapped(Data(p256.publicKeyDER).base64EncodedString(), every: 76)
            return "-----BEGIN PUBLIC KEY-----\n\(body)\n-----END PUBLIC KEY-----"
        case .reactNativeAndroid:
            let body = Self.wrapped(rsa?.publicKey.derRepresentation.base64EncodedString() ?? "", every: 64)
            return "-----BEGIN PUBLIC KEY-----\n\(body)\n-----END PUBLIC KEY-----"
        }
    }

    /// The app sends "ES256" whatever its key; React Native's RSA key included, as the document's code does.
    var declaredAlgorithm: String { "ES256" }

    func sign(_ challenge: String) throws -> String {
        switch flavour {
        case .iOS:
            return try p256.sign(challenge: challenge, convention: .iOS)
        case .android:
            return try p256.sign(challenge: challenge, convention: .android).replacingOccurrences(of: "=", with: "")
        case .reactNativeAndroid:
            guard let rsa else { throw DeviceClientError() }
            return try rsa.signature(for: Data(challenge.utf8), padding: .insecurePKCS1v1_5).rawRepresentation
                .base64EncodedString()
        }
    }

    private static func wrapped(_ text: String, every width: Int) -> String {
        stride(from: 0, to: text.count, by: width).map { offset -> String in
            let start = text.index(text.startIndex, offsetBy: offset)
            return String(text[start..<text.index(start, offsetBy: min(width, text.count - offset))])
        }.joined(separator: "\n")
    }
}

struct DeviceClientError: Error {}

/// The HTTP calls the apps make, in-process.
struct DeviceAPI {
    let app: Application
    /// In memory by default; `.running` goes through a real socket, so requests have a client address.
    var method: Application.Method = .inMemory

    struct Challenge: Decodable {
        let challenge: String
        let sessionId: String
        let deviceId: String?
        let expiresAt: String
    }

    struct Tokens: Decodable {
        let accessToken: String
        let refreshToken: String
        let accessTokenExpiresAt: String
        let refreshTokenExpiresAt: String
    }

    struct SignedIn: Decodable {
        let success: Bool
        let tokens: Tokens
    }

    func post(_ path: String, _ body: [String: any Sendable], bearer: String? = nil) async throws
        -> TestingHTTPResponse
    {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await app.testing(method: method).sendRequest(
            .POST, path, headers: .json(bearer: bearer), body: ByteBuffer(data: data))
    }

    func send(_ method: HTTPMethod, _ path: String, _ body: [String: any Sendable]? = nil, bearer: String) async throws
        -> TestingHTTPResponse
    {
        let buffer = try body.map { ByteBuffer(data: try JSONSerialization.data(withJSONObject: $0)) }
        return try await app.testing(method: self.method).sendRequest(
            method, path, headers: .json(bearer: bearer), body: buffer)
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: TestingHTTPResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(buffer: response.body))
    }

    func registrationChallenge(_ client: DeviceClient, bearer: String, name: String = "Test Phone") async throws
        -> TestingHTTPResponse
    {
        try await post(
            "/api/v1/devices/register/challenge",
            [
                "deviceName": name, "deviceType": "mobile", "deviceFingerprint": client.fingerprint,
                "publicKey": client.publicKeyPEM, "keyAlgorithm": client.declaredAlgorithm,
            ], bearer: bearer)
    }

    /// Registers the client's key; returns the device's id.
    @discardableResult
    func register(_ client: DeviceClient, bearer: String) async throws -> String {
        let issued = try await registrationChallenge(client, bearer: bearer)
        #expect(issued.status == .ok, "\(issued.body.string)")
        let challenge = try decode(Challenge.self, issued)
        let verified = try await post(
            "/api/v1/devices/register/verify",
            ["sessionId": challenge.sessionId, "signedChallenge": try client.sign(challenge.challenge)], bearer: bearer)
        #expect(verified.status == .ok, "\(verified.body.string)")
        return try #require(challenge.deviceId)
    }

    func signInChallenge(_ fingerprint: String) async throws -> Challenge {
        let response = try await post("/api/v1/auth/biometric/challenge", ["deviceFingerprint": fingerprint])
        #expect(response.status == .ok, "\(response.body.string)")
        return try decode(Challenge.self, response)
    }

    func signIn(sessionId: String, signature: String, rememberMe: Bool = false) async throws -> TestingHTTPResponse {
        try await post(
            "/api/v1/auth/biometric/verify",
            ["sessionId": sessionId, "signedChallenge": signature, "rememberMe": rememberMe])
    }

    /// The whole sign-in: the challenge's refusal when it gets none (`DEVICE_NOT_REGISTERED`), else the verify's.
    func signIn(_ client: DeviceClient) async throws -> TestingHTTPResponse {
        let issued = try await post("/api/v1/auth/biometric/challenge", ["deviceFingerprint": client.fingerprint])
        guard issued.status == .ok else { return issued }
        let challenge = try decode(Challenge.self, issued)
        return try await signIn(sessionId: challenge.sessionId, signature: try client.sign(challenge.challenge))
    }

    func refresh(_ token: String) async throws -> TestingHTTPResponse {
        try await post("/api/v1/auth/biometric/refresh", ["refreshToken": token])
    }
}

/// Runs `body` against a Hale in which a signed-in account has registered a `flavour` device; `body` gets the API,
/// the device and the account's bearer token.
func withRegisteredDevice(
    _ flavour: DeviceFlavour = .iOS, clock: HaleClock = .system, settings: [String: String] = [:],
    _ body: (DeviceAPI, DeviceClient, String) async throws -> Void
) async throws {
    try await withHale(clock: clock, settings: settings) { app in
        let api = DeviceAPI(app: app)
        let (_, bearer) = try await makeAccount(app)
        let client = try DeviceClient(flavour)
        try await api.register(client, bearer: bearer)
        try await body(api, client, bearer)
    }
}
