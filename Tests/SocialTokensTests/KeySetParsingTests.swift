import SocialTokens
import Testing
import _CryptoExtras

@Suite("JWK Sets are read strictly, skipping keys that cannot be used")
struct KeySetParsingTests {
    @Test(
        "A key that is skipped is unknown, while the usable key beside it verifies",
        arguments: [
            ("alg RS384", TestKeySet.rsa(TestKeys.otherRSA.publicKey, kid: "bad", alg: "RS384")),
            ("alg HS256", TestKeySet.rsa(TestKeys.otherRSA.publicKey, kid: "bad", alg: "HS256")),
            ("use enc", TestKeySet.rsa(TestKeys.otherRSA.publicKey, kid: "bad", use: "enc")),
            ("EC with alg RS256", TestKeySet.p256(TestKeys.p256.publicKey, kid: "bad", alg: "RS256")),
            ("kty oct", ["kty": "oct", "kid": "bad", "k": "c2VjcmV0"]),
            (
                "kty OKP",
                ["kty": "OKP", "crv": "Ed25519", "kid": "bad", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"]
            ),
            ("EC P-384", ["kty": "EC", "crv": "P-384", "kid": "bad", "x": "AA", "y": "AA"]),
            ("RSA 1024", TestKeySet.rsa(KeySetParsingTests.rsa1024, kid: "bad")),
            ("key_ops sign", TestKeySet.rsa(TestKeys.otherRSA.publicKey, kid: "bad").with("key_ops", ["sign"])),
            ("n not base64url", TestKeySet.rsa(TestKeys.otherRSA.publicKey, kid: "bad").with("n", "a+b/")),
            ("no n", TestKeySet.rsa(TestKeys.otherRSA.publicKey, kid: "bad").with("n", nil)),
            // Refused before the cryptographic library sees it (which refuses it too; the reason: KeyReadingTests).
            (
                "RSA 8200",
                [
                    "kty": "RSA", "kid": "bad", "n": TestBase64URL.encode([UInt8](repeating: 0xFF, count: 1025)),
                    "e": "AQAB",
                ]
            ),
            ("P-256 material named P-384", TestKeySet.p256(TestKeys.p256.publicKey, kid: "bad").with("crv", "P-384")),
        ] as [(String, [String: any Sendable])])
    func skipped(description: String, jwk: [String: any Sendable]) async throws {
        let fixture = await Fixture()
        await fixture.publish(
            Fixture.googleKeys, [jwk, "not a key", TestKeySet.rsa(TestKeys.rsa.publicKey, kid: "google-1")])
        let good = TestJWT.rs256(fixture.googleClaims(), kid: "google-1")
        _ = try await fixture.verifier.verify(provider: .google, token: good, nonce: nil)
        let signer: TestJWT.Signer = jwk["kty"] as? String == "EC" ? .p256(TestKeys.p256) : .rsa(TestKeys.otherRSA)
        let alg = jwk["kty"] as? String == "EC" ? "ES256" : "RS256"
        let bad = TestJWT.make(header: ["alg": alg, "kid": "bad"], claims: fixture.googleClaims(), signer: signer)
        await fixture.expect(.invalidToken("unknown key id"), provider: .google, token: bad)
    }

    @Test("A key without alg or use is usable")
    func minimalKey() async throws {
        let fixture = await Fixture()
        await fixture.publish(
            Fixture.googleKeys, [TestKeySet.rsa(TestKeys.rsa.publicKey, kid: "google-1", alg: nil, use: nil)])
        let token = TestJWT.rs256(fixture.googleClaims(), kid: "google-1")
        _ = try await fixture.verifier.verify(provider: .google, token: token, nonce: nil)
    }

    @Test("When two keys share a kid, the first is used")
    func duplicateKeyID() async throws {
        let fixture = await Fixture()
        await fixture.publish(
            Fixture.googleKeys,
            [
                TestKeySet.rsa(TestKeys.rsa.publicKey, kid: "google-1"),
                TestKeySet.rsa(TestKeys.otherRSA.publicKey, kid: "google-1"),
            ])
        _ = try await fixture.verifier.verify(
            provider: .google, token: TestJWT.rs256(fixture.googleClaims(), kid: "google-1"), nonce: nil)
        let other = TestJWT.rs256(fixture.googleClaims(), kid: "google-1", key: TestKeys.otherRSA)
        await fixture.expect(.invalidToken("bad signature"), provider: .google, token: other)
    }

    /// A 1024-bit RSA public key, which no provider may use.
    static let rsa1024 = try! _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)).publicKey
}
