import Foundation
import SocialTokens
import Testing

/// Google's securetoken certificate set: X.509 PEMs keyed by `kid`, fetched through the same cache as the JWK Sets
/// and kept for its `Cache-Control` lifetime.
@Suite("Firebase's certificate set")
struct FirebaseCertificateSetTests {
    private func verify(_ fixture: Fixture, kid: String = "firebase-1") async throws {
        _ = try await fixture.verifier.verify(
            provider: .firebase, token: TestJWT.rs256(fixture.firebaseClaims(), kid: kid), nonce: nil)
    }

    @Test("Fetched once, kept for its max-age, then fetched again")
    func cachedForMaxAge() async throws {
        let fixture = await Fixture()
        await fixture.publishCertificates(["firebase-1": TestCertificates.rsa], cacheControl: "public, max-age=600")
        for _ in 0..<3 {
            try await verify(fixture)
            fixture.clock.advance(seconds: 199)
        }
        #expect(await fixture.verifier.keySetFetchCount(Fixture.firebaseCertificates) == 1)
        fixture.clock.advance(seconds: 4)
        try await verify(fixture)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.firebaseCertificates) == 2)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 0)
    }

    @Test("A rotated key arrives with a fetch the unknown kid triggers")
    func rotation() async throws {
        let fixture = await Fixture()
        try await verify(fixture)
        await fixture.publishCertificates([
            "firebase-1": TestCertificates.rsa, "firebase-2": TestCertificates.pem(for: TestKeys.otherRSA),
        ])
        fixture.clock.advance(seconds: 61)
        let rotated = TestJWT.rs256(fixture.firebaseClaims(), kid: "firebase-2", key: TestKeys.otherRSA)
        _ = try await fixture.verifier.verify(provider: .firebase, token: rotated, nonce: nil)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.firebaseCertificates) == 2)
    }

    @Test("Members that are not RSA certificates are skipped; the rest are used")
    func unusableMembersSkipped() async throws {
        let fixture = await Fixture()
        await fixture.publishCertificates([
            "firebase-1": TestCertificates.rsa, "ec": TestCertificates.p256, "text": "not a certificate",
            "number": 7, "": TestCertificates.rsa,
        ])
        try await verify(fixture)
        await fixture.expect(
            .invalidToken("unknown key id"), provider: .firebase,
            token: TestJWT.rs256(fixture.firebaseClaims(), kid: "ec"))
    }

    @Test(
        "A document with no usable certificate, or that is not a JSON object, is the provider's problem",
        arguments: [
            (#"{"keys": [{"kty": "RSA"}]}"#, "key set has no usable keys"),
            (#"{"ec": "-----BEGIN CERTIFICATE-----"}"#, "key set has no usable keys"),
            (#"["-----BEGIN CERTIFICATE-----"]"#, "key set malformed"), ("not json", "key set malformed"),
        ])
    func unusableDocument(body: String, reason: String) async {
        let fixture = await Fixture()
        await fixture.provider.answer(
            Fixture.firebaseCertificates, with: SocialHTTPResponse(status: 200, body: Array(body.utf8)))
        await fixture.expect(
            .providerUnavailable(reason), provider: .firebase,
            token: TestJWT.rs256(fixture.firebaseClaims(), kid: "firebase-1"))
    }

    @Test("Google's JWK Set is not a certificate set: a key set URL of the wrong kind has no usable keys")
    func jwkSetIsNotCertificates() async {
        let fixture = await Fixture { $0.firebaseCertificatesURL = Fixture.googleKeys }
        await fixture.expect(
            .providerUnavailable("key set has no usable keys"), provider: .firebase,
            token: TestJWT.rs256(fixture.firebaseClaims(), kid: "google-1"))
    }

    @Test("Certificates unreachable, with none cached")
    func unreachable() async {
        let fixture = await Fixture()
        await fixture.provider.makeUnreachable(Fixture.firebaseCertificates)
        await fixture.expect(
            .providerUnavailable("key set unreachable"), provider: .firebase,
            token: TestJWT.rs256(fixture.firebaseClaims(), kid: "firebase-1"))
    }
}
