import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// One test per reason seed 002's endpoints refuse a request.
@Suite("HTTP: seed 002 device keys, rejections")
struct DeviceRejectionTests {
    private func expectError(
        _ response: TestingHTTPResponse, _ status: HTTPStatus, _ code: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(response.status == status, "\(response.body.string)", sourceLocation: sourceLocation)
        #expect(try response.coreError().error.code == code, sourceLocation: sourceLocation)
    }

    @Test("an unknown fingerprint is DEVICE_NOT_REGISTERED before any biometric; a stranger's key is SIGNATURE_FAILED")
    func unknownFingerprint() async throws {
        try await withRegisteredDevice(.android) { api, client, _ in
            let unknown = try await api.post(
                "/api/v1/auth/biometric/challenge", ["deviceFingerprint": "Android-14-Pixel-None-NOTHERE0"])
            try expectError(unknown, .notFound, "DEVICE_NOT_REGISTERED")
            #expect(try unknown.coreError().error.message.contains("not registered for biometric authentication"))

            let known = try await api.signInChallenge(client.fingerprint)
            let impostor = try DeviceClient(.android, fingerprint: client.fingerprint)
            let forged = try await api.signIn(sessionId: known.sessionId, signature: try impostor.sign(known.challenge))
            try expectError(forged, .unauthorized, "SIGNATURE_FAILED")
        }
    }

    @Test("a challenge answers once")
    func replay() async throws {
        try await withRegisteredDevice(.iOS) { api, client, _ in
            let challenge = try await api.signInChallenge(client.fingerprint)
            let signature = try client.sign(challenge.challenge)
            #expect(try await api.signIn(sessionId: challenge.sessionId, signature: signature).status == .ok)
            try expectError(
                try await api.signIn(sessionId: challenge.sessionId, signature: signature), .badRequest,
                "INVALID_CHALLENGE")
        }
    }

    @Test("a sign-in challenge expires after two minutes")
    func expired() async throws {
        let time = TestClock()
        try await withRegisteredDevice(.iOS, clock: time.clock) { api, client, _ in
            let challenge = try await api.signInChallenge(client.fingerprint)
            time.advance(.seconds(121))
            try expectError(
                try await api.signIn(sessionId: challenge.sessionId, signature: try client.sign(challenge.challenge)),
                .badRequest, "INVALID_CHALLENGE")
        }
    }

    @Test("a sign-in answer must sign the challenge it names")
    func signatureOverAnotherChallenge() async throws {
        try await withRegisteredDevice(.iOS) { api, client, _ in
            let first = try await api.signInChallenge(client.fingerprint)
            let second = try await api.signInChallenge(client.fingerprint)
            try expectError(
                try await api.signIn(sessionId: second.sessionId, signature: try client.sign(first.challenge)),
                .unauthorized, "SIGNATURE_FAILED")
        }
    }

    @Test(
        "signature encodings no documented client produces are refused", arguments: ["base64url", "whitespace", "raw"])
    func foreignEncodings(encoding: String) async throws {
        try await withRegisteredDevice(.android) { api, client, _ in
            let challenge = try await api.signInChallenge(client.fingerprint)
            let signature = try client.sign(challenge.challenge)
            let sent: String =
                switch encoding {
                case "base64url":
                    signature.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") + "-_"
                case "whitespace": String(signature.prefix(10)) + "\n" + signature.dropFirst(10)
                default: Data(repeating: 1, count: 64).base64EncodedString()
                }
            try expectError(
                try await api.signIn(sessionId: challenge.sessionId, signature: sent), .unauthorized, "SIGNATURE_FAILED"
            )
        }
    }

    @Test("repeated failed signatures lock the device out, then it recovers")
    func lockout() async throws {
        let time = TestClock()
        try await withRegisteredDevice(.iOS, clock: time.clock, settings: ["deviceKeys.lockoutThreshold": "3"]) {
            api, client, _ in
            let impostor = try DeviceClient(.iOS, fingerprint: client.fingerprint)
            for _ in 0..<3 {
                try expectError(try await api.signIn(impostor), .unauthorized, "SIGNATURE_FAILED")
            }
            try expectError(try await api.signIn(client), .unauthorized, "SIGNATURE_FAILED")
            time.advance(.seconds(15 * 60))
            #expect(try await api.signIn(client).status == .ok)
        }
    }

    @Test("registration needs a signed-in account")
    func registrationNeedsBearer() async throws {
        try await withHale { app in
            let response = try await DeviceAPI(app: app).post(
                "/api/v1/devices/register/challenge", ["deviceName": "x"])
            try expectError(response, .unauthorized, "UNAUTHORIZED")
        }
    }

    @Test(
        "registration fields are validated",
        arguments: [
            ("deviceName", ""), ("deviceType", "toaster"), ("deviceFingerprint", ""), ("keyAlgorithm", "HS256"),
        ])
    func registrationValidation(field: String, value: String) async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let client = try DeviceClient(.iOS)
            var body: [String: any Sendable] = [
                "deviceName": "Phone", "deviceType": "mobile", "deviceFingerprint": client.fingerprint,
                "publicKey": client.publicKeyPEM, "keyAlgorithm": "ES256",
            ]
            body[field] = value
            try expectError(
                try await api.post("/api/v1/devices/register/challenge", body, bearer: bearer), .badRequest,
                "INVALID_REQUEST")
        }
    }

    @Test(
        "public keys Hale does not accept are refused",
        arguments: [
            "not a key",
            "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----",
            "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----",
        ])
    func invalidPublicKey(pem: String) async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let body: [String: any Sendable] = [
                "deviceName": "Phone", "deviceType": "mobile", "deviceFingerprint": "f", "publicKey": pem,
                "keyAlgorithm": "ES256",
            ]
            try expectError(
                try await api.post("/api/v1/devices/register/challenge", body, bearer: bearer), .badRequest,
                "INVALID_PUBLIC_KEY")
        }
    }

    @Test("a key is registered once")
    func duplicateKey() async throws {
        try await withRegisteredDevice(.iOS) { api, client, _ in
            let signedIn = try api.decode(DeviceAPI.SignedIn.self, try await api.signIn(client))
            try expectError(
                try await api.registrationChallenge(client, bearer: signedIn.tokens.accessToken), .conflict, "CONFLICT")
        }
    }

    @Test("a registration must be signed by the key it registers")
    func registrationSignature() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let client = try DeviceClient(.iOS)
            let challenge = try api.decode(
                DeviceAPI.Challenge.self, try await api.registrationChallenge(client, bearer: bearer))
            let other = try DeviceClient(.iOS)
            let response = try await api.post(
                "/api/v1/devices/register/verify",
                ["sessionId": challenge.sessionId, "signedChallenge": try other.sign(challenge.challenge)],
                bearer: bearer)
            try expectError(response, .badRequest, "SIGNATURE_FAILED")
        }
    }

    @Test("another account cannot complete a registration")
    func registrationBoundToAccount() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app, email: "one@example.com")
            let (_, otherBearer) = try await makeSignedInAccount(app, email: "two@example.com")
            let client = try DeviceClient(.iOS)
            let challenge = try api.decode(
                DeviceAPI.Challenge.self, try await api.registrationChallenge(client, bearer: bearer))
            let response = try await api.post(
                "/api/v1/devices/register/verify",
                ["sessionId": challenge.sessionId, "signedChallenge": try client.sign(challenge.challenge)],
                bearer: otherBearer)
            try expectError(response, .badRequest, "INVALID_CHALLENGE")
        }
    }

    @Test("unknown fields are refused")
    func unknownField() async throws {
        try await withHale { app in
            let response = try await DeviceAPI(app: app).post(
                "/api/v1/auth/biometric/challenge", ["deviceFingerprint": "f", "extra": 1])
            try expectError(response, .badRequest, "INVALID_REQUEST")
        }
    }

    @Test("an unknown refresh token is invalid")
    func unknownRefreshToken() async throws {
        try await withHale { app in
            try expectError(
                try await DeviceAPI(app: app).refresh("nonsense"), .unauthorized, "TOKEN_INVALID")
        }
    }
}

/// Request budgets on the device-key routes.
@Suite("HTTP: seed 002 device keys, rate limits")
struct DeviceRateLimitTests {
    @Test("challenges beyond the per-fingerprint budget get 429 with Retry-After, until the window ends")
    func perFingerprint() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: ["rateLimits.deviceKeysPerFingerprint": "3/1m"]) { app in
            let api = DeviceAPI(app: app)
            // Counted before the fingerprint is looked up: an unknown one spends the budget as a known one does.
            for _ in 0..<3 {
                let unknown = try await api.post(
                    "/api/v1/auth/biometric/challenge", ["deviceFingerprint": "fingerprint-a"])
                #expect(unknown.status == .notFound)
            }
            let refused = try await api.post("/api/v1/auth/biometric/challenge", ["deviceFingerprint": "fingerprint-a"])
            #expect(refused.status == .tooManyRequests)
            #expect(try refused.coreError().error.code == "RATE_LIMITED")
            #expect(refused.headers.first(name: .retryAfter) == "60")
            let other = try await api.post("/api/v1/auth/biometric/challenge", ["deviceFingerprint": "fingerprint-b"])
            #expect(other.status == .notFound)
            time.advance(.seconds(60))
            let later = try await api.post("/api/v1/auth/biometric/challenge", ["deviceFingerprint": "fingerprint-a"])
            #expect(later.status == .notFound)
        }
    }

    @Test("the budget per client address caps how many fingerprints one client can ask about")
    func probingIsCapped() async throws {
        try await withHale(settings: ["rateLimits.deviceKeysPerIp": "3/1m"]) { app in
            let api = DeviceAPI(app: app, method: .running(hostname: "127.0.0.1", port: try freeLoopbackPort()))
            var statuses: [HTTPStatus] = []
            for index in 0..<4 {
                let probe = try await api.post(
                    "/api/v1/auth/biometric/challenge", ["deviceFingerprint": "Android-14-Pixel-\(index)"])
                statuses.append(probe.status)
            }
            #expect(statuses == [.notFound, .notFound, .notFound, .tooManyRequests])
        }
    }

    @Test("verify requests count against the client's budget")
    func perClient() async throws {
        try await withHale(settings: ["rateLimits.deviceKeysPerIp": "2/1m"]) { app in
            let api = DeviceAPI(app: app, method: .running(hostname: "127.0.0.1", port: try freeLoopbackPort()))
            let statuses = try await (0..<3).asyncMap { _ in
                try await api.signIn(sessionId: "unknown", signature: "AAAA").status
            }
            #expect(statuses == [.badRequest, .badRequest, .tooManyRequests])
        }
    }

    @Test("a malformed budget is a configuration error")
    func configuration() {
        #expect(RateLimit("30/1m") == RateLimit("30/60s"))
        #expect(RateLimit("0/1m") == nil)
        #expect(RateLimit("30") == nil)
        #expect(RateLimit("x/1m") == nil)
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
