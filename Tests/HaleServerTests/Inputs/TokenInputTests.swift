import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Tokens and keys a client presents are bounded before they are hashed or parsed, and the 400 names the limit.
@Suite("HTTP: token and key bounds")
struct TokenInputTests {
    static let presented = "must be 1 to 256 bytes with no control characters."
    static let tooLong = String(repeating: "t", count: 257)

    @Test(
        "a refresh token out of bounds is a 400 on both refresh routes",
        arguments: ["/api/v1/auth/refresh", "/api/v1/auth/biometric/refresh"], ["", tooLong, "tok\u{7F}en"])
    func refreshToken(path: String, token: String) async throws {
        try await withHale { app in
            let response = try await app.testing().sendRequest(
                .POST, path, headers: .json(), body: ByteBuffer(data: try JSONEncoder().encode(["refreshToken": token]))
            )
            #expect(response.status == .badRequest)
            #expect(try response.coreError().error.message == "refreshToken \(Self.presented)")
        }
    }

    @Test("a refresh token of 256 bytes is looked up: unknown, 401")
    func longestRefreshToken() async throws {
        try await withHale { app in
            let response = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/refresh", headers: .json(),
                body: .json(#"{"refreshToken":"\#(String(repeating: "t", count: 256))"}"#))
            #expect(response.status == .unauthorized)
        }
    }

    @Test("a handoff code out of bounds is a 400")
    func handoffCode() async throws {
        try await withHale { app in
            let response = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/handoff/redeem", headers: .json(), body: .json(#"{"code":"\#(Self.tooLong)"}"#))
            #expect(response.status == .badRequest)
            #expect(try response.coreError().error.message == "code \(Self.presented)")
        }
    }

    @Test("a device challenge's sessionId out of bounds is a 400, at sign-in and at registration")
    func sessionId() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeAccount(app)
            let signIn = try await api.signIn(sessionId: Self.tooLong, signature: "c2ln")
            #expect(signIn.status == .badRequest)
            #expect(try signIn.coreError().error.message == "sessionId \(Self.presented)")
            let registration = try await api.post(
                "/api/v1/devices/register/verify", ["sessionId": "", "signedChallenge": "c2ln"], bearer: bearer)
            #expect(registration.status == .badRequest)
            #expect(try registration.coreError().error.message == "sessionId \(Self.presented)")
        }
    }

    @Test("a device's public key over 8192 bytes, the same limit as the DeviceKeys library's")
    func devicePublicKey() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeAccount(app)
            let response = try await api.post(
                "/api/v1/devices/register/challenge",
                [
                    "deviceName": "Phone", "deviceType": "mobile", "deviceFingerprint": "f",
                    "publicKey": String(repeating: "A", count: 8193), "keyAlgorithm": "ES256",
                ], bearer: bearer)
            #expect(response.status == .badRequest)
            let error = try response.coreError().error
            #expect(error.code == "INVALID_PUBLIC_KEY")
            #expect(error.message == "publicKey must be at most 8192 bytes: a PEM SubjectPublicKeyInfo.")
        }
    }

    @Test(
        "an App Attest key registration names the limit it broke",
        arguments: [
            (
                #"{"keyId":"\#(Data(count: 32).base64EncodedString())","attestation":"AAAA","nonce":"\#(tooLong)"}"#,
                "nonce must be at most 256 bytes"
            ),
            (
                #"{"keyId":"\#(Data(count: 32).base64EncodedString())","attestation":"AAAA","nonce":""}"#,
                "nonce should not be empty"
            ),
            (
                #"{"keyId":"\#(Data(count: 32).base64EncodedString())","attestation":"\#(String(repeating: "A", count: 32_772))","nonce":"n"}"#,
                "attestation must be the base64 attestation object, at most 32768 bytes"
            ),
        ])
    func attestationKey(body: String, message: String) async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let response = try await app.testing().sendRequest(
                .POST, "/health/attestation-keys", headers: .json(bearer: token), body: .json(body))
            #expect(try HealthHTTPTests.error(response, .badRequest) == message)
        }
    }
}
