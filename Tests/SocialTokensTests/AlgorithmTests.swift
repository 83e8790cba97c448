import Crypto
import Foundation
import SocialTokens
import Testing
import _CryptoExtras

@Suite("Signatures and algorithms")
struct AlgorithmTests {
    @Test("Signed by a key the provider does not publish, under a published kid")
    func badSignature() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.googleClaims(), kid: "google-1", key: TestKeys.otherRSA)
        await fixture.expect(.invalidToken("bad signature"), provider: .google, token: token)
    }

    @Test("Claims changed after signing")
    func tamperedClaims() async {
        let fixture = await Fixture()
        let parts = TestJWT.rs256(fixture.googleClaims(), kid: "google-1").split(separator: ".")
        let forged = TestJWT.encodeJSON(fixture.googleClaims().with("sub", "victim"))
        let token = [String(parts[0]), forged, String(parts[2])].joined(separator: ".")
        await fixture.expect(.invalidToken("bad signature"), provider: .google, token: token)
    }

    @Test("A signature one byte short")
    func truncatedSignature() async {
        let fixture = await Fixture()
        let header = ["alg": "RS256", "kid": "google-1"]
        let input = TestJWT.encodeJSON(header) + "." + TestJWT.encodeJSON(fixture.googleClaims())
        let signature = TestJWT.signature(over: Array(input.utf8), signer: .rsa(TestKeys.rsa)).dropLast()
        let token = input + "." + TestBase64URL.encode(signature)
        await fixture.expect(.invalidToken("signature length does not fit the key"), provider: .google, token: token)
    }

    @Test("alg none, with and without a kid", arguments: ["none", "None", "NONE"])
    func algNone(alg: String) async {
        let fixture = await Fixture()
        for header in [["alg": alg], ["alg": alg, "kid": "google-1"]] {
            let token = TestJWT.make(header: header, claims: fixture.googleClaims(), signer: .empty)
            await fixture.expect(.invalidToken("unsupported algorithm"), provider: .google, token: token)
        }
        #expect(await fixture.provider.requests.isEmpty)
    }

    @Test("HS256 keyed with the provider's RSA public key, in every form an attacker might try")
    func hs256WithPublicKey() async throws {
        let fixture = await Fixture()
        let publicKey = TestKeys.rsa.publicKey
        let secrets = [
            Array(publicKey.derRepresentation), Array(publicKey.pemRepresentation.utf8),
            Array(publicKey.pkcs1DERRepresentation), Array(try publicKey.getKeyPrimitives().modulus),
            Array(TestKeySet.document([TestKeySet.rsa(publicKey, kid: "google-1")])),
        ]
        for secret in secrets {
            let token = TestJWT.make(
                header: ["alg": "HS256", "kid": "google-1", "typ": "JWT"], claims: fixture.googleClaims(),
                signer: .hmac(secret))
            await fixture.expect(.invalidToken("unsupported algorithm"), provider: .google, token: token)
        }
    }

    @Test("Other algorithms are refused", arguments: ["RS384", "RS512", "PS256", "ES384", "EdDSA", "HS512", ""])
    func otherAlgorithms(alg: String) async {
        let fixture = await Fixture()
        let token = TestJWT.make(
            header: ["alg": alg, "kid": "google-1"], claims: fixture.googleClaims(), signer: .rsa(TestKeys.rsa))
        await fixture.expect(.invalidToken("unsupported algorithm"), provider: .google, token: token)
    }

    @Test("A header ES256 naming an RSA key")
    func es256WithRSAKey() async {
        let fixture = await Fixture()
        let token = TestJWT.make(
            header: ["alg": "ES256", "kid": "google-1"], claims: fixture.googleClaims(), signer: .p256(TestKeys.p256))
        await fixture.expect(.invalidToken("algorithm does not match key"), provider: .google, token: token)
    }

    @Test("An ES256 token verifies with an EC P-256 key the set publishes")
    func es256() async throws {
        let fixture = await Fixture()
        await fixture.publish(Fixture.googleKeys, [TestKeySet.p256(TestKeys.p256.publicKey, kid: "google-ec")])
        let token = TestJWT.make(
            header: ["alg": "ES256", "kid": "google-ec"], claims: fixture.googleClaims(), signer: .p256(TestKeys.p256))
        _ = try await fixture.verifier.verify(provider: .google, token: token, nonce: nil)
    }

    @Test("An ES256 token signed by another P-256 key")
    func es256BadSignature() async throws {
        let fixture = await Fixture()
        await fixture.publish(Fixture.googleKeys, [TestKeySet.p256(TestKeys.p256.publicKey, kid: "google-ec")])
        let token = TestJWT.make(
            header: ["alg": "ES256", "kid": "google-ec"], claims: fixture.googleClaims(),
            signer: .p256(P256.Signing.PrivateKey()))
        await fixture.expect(.invalidToken("bad signature"), provider: .google, token: token)
    }

    @Test("A header RS256 naming an EC key")
    func rs256WithECKey() async {
        let fixture = await Fixture()
        await fixture.publish(Fixture.googleKeys, [TestKeySet.p256(TestKeys.p256.publicKey, kid: "google-ec")])
        let token = TestJWT.rs256(fixture.googleClaims(), kid: "google-ec")
        await fixture.expect(.invalidToken("algorithm does not match key"), provider: .google, token: token)
    }

    @Test("An ES256 signature in DER rather than JOSE's R‖S")
    func es256DER() async throws {
        let fixture = await Fixture()
        await fixture.publish(Fixture.googleKeys, [TestKeySet.p256(TestKeys.p256.publicKey, kid: "google-ec")])
        let input =
            TestJWT.encodeJSON(["alg": "ES256", "kid": "google-ec"]) + "." + TestJWT.encodeJSON(fixture.googleClaims())
        let der = try TestKeys.p256.signature(for: Array(input.utf8)).derRepresentation
        let token = input + "." + TestBase64URL.encode(der)
        await fixture.expect(.invalidToken("signature length does not fit the key"), provider: .google, token: token)
    }

    @Test("Without a kid")
    func missingKeyID() async {
        let fixture = await Fixture()
        let token = TestJWT.make(header: ["alg": "RS256"], claims: fixture.googleClaims(), signer: .rsa(TestKeys.rsa))
        await fixture.expect(.invalidToken("missing key id"), provider: .google, token: token)
    }

    @Test("A critical header extension")
    func criticalHeader() async {
        let fixture = await Fixture()
        let header: [String: Any] = ["alg": "RS256", "kid": "google-1", "crit": ["exp"], "exp": 1]
        let token = TestJWT.make(header: header, claims: fixture.googleClaims(), signer: .rsa(TestKeys.rsa))
        await fixture.expect(.invalidToken("unsupported critical header"), provider: .google, token: token)
    }

    @Test("A key embedded in the header is never trusted")
    func embeddedJWK() async {
        let fixture = await Fixture()
        let header: [String: Any] = [
            "alg": "RS256", "kid": "attacker", "jwk": TestKeySet.rsa(TestKeys.otherRSA.publicKey, kid: "attacker"),
            "jku": "https://attacker.test/keys",
        ]
        let token = TestJWT.make(header: header, claims: fixture.googleClaims(), signer: .rsa(TestKeys.otherRSA))
        await fixture.expect(.invalidToken("unknown key id"), provider: .google, token: token)
        #expect(await fixture.provider.requests == [Fixture.googleKeys])
    }
}
