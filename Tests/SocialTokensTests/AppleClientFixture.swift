import Crypto
import Foundation
import SocialTokens
import Testing

/// An ``AppleTokenClient`` wired to a fake Apple and a test clock, with the answers Apple gives.
struct AppleClientFixture {
    static let teamID = "TEAM123456"
    static let keyID = "KEY1234567"
    static let clientID = "app.hale.ios"
    static let tokenURL = "https://apple.test/auth/token"
    static let revokeURL = "https://apple.test/auth/revoke"
    static let subject = "001234.abcdef0123456789.1234"
    static let code = "c0d3.0.rrsvq.Jx8aQ-authorization-code"
    static let refreshToken = "r3fr3sh.0.rrsvq.Zk2-refresh-token"
    /// The team's Sign in with Apple key, as the `.p8` file Apple hands out.
    static let key = try! P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0x33, count: 32))

    let clock = TestClock()
    let provider = FakeProvider()
    let client: AppleTokenClient

    init() throws {
        let clock = self.clock
        client = try AppleTokenClient(credentials: Self.credentials(), http: provider, now: { clock.now() })
    }

    /// The fixture's credentials, pointed at the fake endpoints.
    static func credentials(pem: String = key.pemRepresentation) -> AppleCredentials {
        var credentials = AppleCredentials(teamID: teamID, keyID: keyID, privateKeyPEM: pem)
        credentials.tokenURL = tokenURL
        credentials.revokeURL = revokeURL
        return credentials
    }

    /// An id_token as Apple returns it from the token endpoint, changed by `change`.
    func idToken(_ change: (inout [String: Any]) -> Void = { _ in }) -> String {
        let now = clock.now().timeIntervalSince1970
        var claims: [String: Any] = [
            "iss": "https://appleid.apple.com", "aud": Self.clientID, "sub": Self.subject, "iat": now,
            "exp": now + 86_400, "at_hash": "x4Ywx2pP1rj4Yq7Qz1nK2Q", "auth_time": now - 5,
            "nonce_supported": true,
        ]
        change(&claims)
        return TestJWT.rs256(claims, kid: "apple-1")
    }

    /// Makes the token endpoint answer as it does to a good code.
    func serveTokens(idToken: String? = nil) async {
        await provider.answer(
            Self.tokenURL,
            json: [
                "access_token": "a7c.0.rrsvq.access", "token_type": "Bearer", "expires_in": 3600,
                "refresh_token": Self.refreshToken, "id_token": idToken ?? self.idToken(),
            ])
    }

    /// The forms posted so far, as name-value pairs.
    func postedForms() async -> [(url: String, fields: [(String, String)])] {
        await provider.posts
    }

    /// The claims of a client secret whose header is ES256 with the fixture's key id and whose signature verifies
    /// with the fixture's public key; nil otherwise.
    static func verifiedClaims(ofSecret secret: String) -> [String: Any]? {
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = TestBase64URL.decodeJSON(parts[0]), header["alg"] as? String == "ES256",
            header["kid"] as? String == keyID, let signature = TestBase64URL.decode(parts[2]),
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.publicKey.isValidSignature(ecdsa, for: Array("\(parts[0]).\(parts[1])".utf8))
        else { return nil }
        return TestBase64URL.decodeJSON(parts[1])
    }

    /// Expects `body` to throw `expected`, and the error's descriptions to hold none of `secrets`.
    static func expect(
        _ expected: SocialTokenError, secrets: [String] = [], sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws(SocialTokenError) -> Void
    ) async {
        do throws(SocialTokenError) {
            try await body()
            Issue.record("expected \(expected), but it succeeded", sourceLocation: sourceLocation)
        } catch {
            #expect(error == expected, sourceLocation: sourceLocation)
            for secret in secrets {
                #expect(!"\(error)".contains(secret), sourceLocation: sourceLocation)
                #expect(!String(reflecting: error).contains(secret), sourceLocation: sourceLocation)
            }
        }
    }
}

extension TestBase64URL {
    /// The bytes of unpadded base64url `text`.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }

    /// The JSON object that unpadded base64url `text` encodes.
    static func decodeJSON(_ text: some StringProtocol) -> [String: Any]? {
        decode(text).flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
    }
}
