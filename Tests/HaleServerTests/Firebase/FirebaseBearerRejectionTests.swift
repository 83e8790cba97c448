import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Every reason a Firebase ID token is refused, at a seed 000 route: a 401 in the document's error shape, with the
/// RFC 6750 challenge, `TOKEN_EXPIRED` for an expired token (the app asks Firebase for a fresh one) and
/// `TOKEN_INVALID` for the rest; the reason goes to the log, never to the client, and no account is made.
@Suite("HTTP: seed 000's Firebase bearer, refused")
struct FirebaseBearerRejectionTests {
    /// A way to spoil a token, the code the client sees and the reason the log gives.
    struct Spoiled: Sendable, CustomTestStringConvertible {
        let reason: String
        let code: String
        let token: @Sendable (FakeFirebase) throws -> String

        var testDescription: String { reason }

        init(
            _ reason: String, code: String = "TOKEN_INVALID",
            _ token: @escaping @Sendable (FakeFirebase) throws -> String
        ) {
            self.reason = reason
            self.code = code
            self.token = token
        }
    }

    static let uid = "refused-firebase-user"
    static var now: Int { Int(Date().timeIntervalSince1970) }

    static let cases: [Spoiled] = [
        Spoiled("expired", code: "TOKEN_EXPIRED") {
            try $0.idToken(uid: uid, changes: ["iat": now - 3700, "exp": now - 100, "auth_time": now - 3800])
        },
        Spoiled("wrong audience") { try $0.idToken(uid: uid, changes: ["aud": "another-project"]) },
        Spoiled("wrong issuer") {
            try $0.idToken(uid: uid, changes: ["iss": "https://securetoken.google.com/another-project"])
        },
        Spoiled("missing expiry") { try $0.idToken(uid: uid, changes: ["exp": NSNull()]) },
        Spoiled("missing issued-at") { try $0.idToken(uid: uid, changes: ["iat": NSNull()]) },
        Spoiled("issued in the future") { try $0.idToken(uid: uid, changes: ["iat": now + 600]) },
        Spoiled("missing auth time") { try $0.idToken(uid: uid, changes: ["auth_time": NSNull()]) },
        Spoiled("authenticated in the future") { try $0.idToken(uid: uid, changes: ["auth_time": now + 600]) },
        Spoiled("missing subject") { try $0.idToken(uid: "", changes: [:]) },
        Spoiled("subject too long") { try $0.idToken(uid: String(repeating: "u", count: 129)) },
        Spoiled("unknown key id") {
            try $0.idToken(uid: uid, header: ["alg": "RS256", "kid": "rotated-away", "typ": "JWT"])
        },
        Spoiled("missing key id") { try $0.idToken(uid: uid, header: ["alg": "RS256", "typ": "JWT"]) },
        Spoiled("unsupported algorithm") {
            try $0.idToken(uid: uid, header: ["alg": "HS256", "kid": FakeFirebase.keyID, "typ": "JWT"])
        },
        Spoiled("bad signature") { fake in
            let token = try fake.idToken(uid: uid)
            let other = try fake.idToken(uid: "someone-else")
            return token.split(separator: ".").prefix(2).joined(separator: ".") + "."
                + String(other.split(separator: ".")[2])
        },
        Spoiled("a custom token, not an ID token") {
            try $0.idToken(
                uid: uid,
                changes: [
                    "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
                ])
        },
        Spoiled("token too long") {
            try $0.idToken(uid: uid, changes: ["padding": String(repeating: "p", count: 7000)])
        },
        Spoiled("not a compact JWS") { _ in "not-a-firebase-token" },
        Spoiled("invalid claims") { _ in "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsifQ.bm90IGpzb24.c2ln" },
    ]

    @Test(arguments: cases)
    func refused(spoiled: Spoiled) async throws {
        let capture = LogCapture()
        try await FirebaseHarness.run { harness in
            harness.app.logger = capture.logger()
            let response = try await harness.get(
                "/api/mobile/biometric/passkeys", bearer: try spoiled.token(harness.firebase))
            #expect(response.status == .unauthorized)
            let error = try response.coreError()
            #expect(error.success == false)
            #expect(error.error.code == spoiled.code)
            #expect(
                [HaleError.invalidToken.message, HaleError.expiredToken.message].contains(error.error.message),
                "the reason is logged, not returned")
            #expect(response.headers.first(name: .wwwAuthenticate) == #"Bearer realm="hale", error="invalid_token""#)
            let logged = capture.text.split(separator: "\n").filter { $0.contains("firebase ID token refused") }
            #expect(logged.count == 1)
            #expect(
                logged.allSatisfy {
                    $0.contains("\"reason\": \(spoiled.reason),") || $0.contains("\"reason\": \(spoiled.reason)]")
                })
            #expect(try await harness.accountCount() == 0)
        }
    }

    @Test("Google's certificates unreachable: a 503, not a 401 the app would answer by signing out")
    func certificatesUnreachable() async throws {
        try await FirebaseHarness.run(settings: ["firebase.certificatesUrl": "http://127.0.0.1:1/certs"]) { harness in
            let response = try await harness.get(
                "/api/mobile/biometric/passkeys", bearer: try harness.firebase.idToken(uid: Self.uid))
            #expect(response.status == .serviceUnavailable)
            #expect(try response.coreError().error.code == "OAUTH_ERROR")
        }
    }
}
