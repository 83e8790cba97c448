import ByteEncoding
import Crypto
import Foundation
import Testing

@testable import SocialTokens

/// Each limit at exactly its value, and checks that only an input no other check refuses can reach: what mutation
/// testing (`scripts/mutate SocialTokens`) found that no other test noticed removed.
@Suite("Social tokens: limits at exactly their value")
struct BoundaryTests {
    @Test("Expired exactly at the end of the clock skew")
    func expiredAtTheSkew() async {
        let fixture = await Fixture()
        let claims = fixture.googleClaims().with("iat", fixture.time(-3600)).with("exp", fixture.time(-60))
        await fixture.expect(.invalidToken("expired"), provider: .google, token: TestJWT.rs256(claims, kid: "google-1"))
    }

    @Test("Issued, or valid from, exactly the clock skew ahead: accepted")
    func aheadByTheSkew() async throws {
        let fixture = await Fixture()
        let issued = fixture.googleClaims().with("iat", fixture.time(60)).with("exp", fixture.time(3660))
        _ = try await fixture.verifier.verify(
            provider: .google, token: TestJWT.rs256(issued, kid: "google-1"), nonce: nil)
        let notBefore = fixture.googleClaims().with("nbf", fixture.time(60))
        _ = try await fixture.verifier.verify(
            provider: .google, token: TestJWT.rs256(notBefore, kid: "google-1"), nonce: nil)
    }

    @Test("An iat that is not a time, where iat is not required")
    func issuedAtNotATime() async {
        let fixture = await Fixture()
        let claims = fixture.appleClaims().with("iat", "yesterday")
        await fixture.expect(
            .invalidToken("missing issued-at"), provider: .apple, token: TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("A not-before that is not a time")
    func notBeforeNotATime() async {
        let fixture = await Fixture()
        let claims = fixture.googleClaims().with("nbf", "tomorrow")
        await fixture.expect(
            .invalidToken("not yet valid"), provider: .google, token: TestJWT.rs256(claims, kid: "google-1"))
    }

    @Test("An Apple event at time 0 is read; one before it is not")
    func appleEventAtTheEpoch() async throws {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims(fixture.appleEvent().with("event_time", 0))
        let event = try await fixture.verifier.verifyAppleNotification(TestJWT.rs256(claims, kid: "apple-1"))
        #expect(event.eventTime == Date(timeIntervalSince1970: 0))
    }

    @Test("An empty kid")
    func emptyKeyID() async {
        let fixture = await Fixture()
        let token = TestJWT.make(
            header: ["alg": "RS256", "kid": ""], claims: fixture.googleClaims(), signer: .rsa(TestKeys.rsa))
        await fixture.expect(.invalidToken("missing key id"), provider: .google, token: token)
    }

    @Test("A token of exactly the longest length is read, not refused for its length")
    func longestToken() async {
        let fixture = await Fixture()
        let token = String(repeating: "a", count: CompactJWS.maximumLength)
        await fixture.expect(.invalidToken("not a compact JWS"), provider: .apple, token: token)
    }

    @Test("Base64url of a length no encoding has")
    func base64URLLength() {
        #expect(Base64URL.canonicalBytes("AAAA") == [0, 0, 0])
        #expect(Base64URL.canonicalBytes("A") == nil)
        #expect(Base64URL.canonicalBytes("AAAAA") == nil)
    }

    @Test("Apple's token response: at most 64 KiB, exactly 64 KiB read")
    func appleTokenResponseSize() throws {
        let claims: [String: Any] = [
            "iss": "https://appleid.apple.com", "aud": Fixture.appleBundleID, "sub": "001234.abcdef.1234",
        ]
        let idToken = TestJWT.rs256(claims, kid: "apple-1")
        let body = #"{"refresh_token":"r1.abc","id_token":"\#(idToken)"}"#
        let exact = Array(
            (body + String(repeating: " ", count: AppleTokens.maximumResponseSize - body.utf8.count)).utf8)
        #expect(try AppleTokens(tokenResponse: exact, clientID: Fixture.appleBundleID).subject == "001234.abcdef.1234")
        #expect(throws: SocialTokenError.appleResponseMalformed) {
            _ = try AppleTokens(tokenResponse: exact + [0x20], clientID: Fixture.appleBundleID)
        }
        for refreshToken in ["", "r1 abc", "r1.é"] {
            let body = Array(#"{"refresh_token":"\#(refreshToken)","id_token":"\#(idToken)"}"#.utf8)
            #expect(throws: SocialTokenError.appleResponseMalformed, "\(refreshToken)") {
                _ = try AppleTokens(tokenResponse: body, clientID: Fixture.appleBundleID)
            }
        }
    }

    @Test("Apple's error answer: its code read from at most 64 KiB")
    func appleErrorSize() {
        let body = #"{"error":"invalid_grant"}"#
        let exact = Array(
            (body + String(repeating: " ", count: AppleTokens.maximumResponseSize - body.utf8.count)).utf8)
        let answer = { (body: [UInt8]) in
            AppleTokenClient.failure(SocialHTTPResponse(status: 400, headers: [], body: body))
        }
        #expect(answer(exact) == .appleInvalidGrant)
        #expect(answer(exact + [0x20]) == .appleStatus(400))
    }

    @Test("Apple's key: PKCS#8 only, its END line last")
    func applePrivateKeyForm() {
        let key = P256.Signing.PrivateKey()
        #expect(AppleTokenClient.pkcs8P256Key(key.pemRepresentation) != nil)
        // RFC 5915's ECPrivateKey: version 1, the scalar, the curve, the public point.
        let der: [UInt8] =
            [0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20] + Array(key.rawRepresentation)
            + [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0xA1, 0x44, 0x03, 0x42, 0x00]
            + Array(key.publicKey.x963Representation)
        let body = Data(der).base64EncodedString(options: .lineLength64Characters)
        let sec1 = "-----BEGIN EC PRIVATE KEY-----\n\(body)\n-----END EC PRIVATE KEY-----"
        #expect(P256.Signing.PrivateKey(sec1PEM: sec1) != nil, "the library reads it")
        #expect(AppleTokenClient.pkcs8P256Key(sec1) == nil)
        #expect(AppleTokenClient.pkcs8P256Key(key.pemRepresentation + "\ntrailing") == nil)
    }

    @Test("A key set is fetched again at exactly the end of its lifetime")
    func keySetLifetimeEnds() async throws {
        let fixture = await Fixture()
        await fixture.publish(
            Fixture.googleKeys, [TestKeySet.rsa(TestKeys.rsa.publicKey, kid: "google-1")], cacheControl: "max-age=600")
        let token = { TestJWT.rs256(fixture.googleClaims(), kid: "google-1") }
        _ = try await fixture.verifier.verify(provider: .google, token: token(), nonce: nil)
        fixture.clock.advance(seconds: 600)
        _ = try await fixture.verifier.verify(provider: .google, token: token(), nonce: nil)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 2)
    }

    @Test("A key set of exactly 1 MiB is read; one byte more is not")
    func keySetSize() async throws {
        for (extra, readable) in [(0, true), (1, false)] {
            let fixture = await Fixture()
            let document = TestKeySet.document([TestKeySet.rsa(TestKeys.rsa.publicKey, kid: "google-1")])
            let body = document + [UInt8](repeating: 0x20, count: KeySetDownload.maximumSize - document.count + extra)
            await fixture.provider.answer(
                Fixture.googleKeys, with: SocialHTTPResponse(status: 200, headers: [], body: body))
            let token = TestJWT.rs256(fixture.googleClaims(), kid: "google-1")
            if readable {
                _ = try await fixture.verifier.verify(provider: .google, token: token, nonce: nil)
            } else {
                await fixture.expect(.providerUnavailable("key set malformed"), provider: .google, token: token)
            }
        }
    }

    @Test("An Apple notification signed RS256 with a kid that names an EC key")
    func appleNotificationAlgorithmKeyMismatch() async {
        let fixture = await Fixture()
        await fixture.publish(Fixture.appleKeys, [TestKeySet.p256(TestKeys.p256.publicKey, kid: "apple-1")])
        await fixture.expectNotification(
            .invalidToken("algorithm does not match key"),
            TestJWT.rs256(fixture.appleNotificationClaims(), kid: "apple-1"))
    }

    @Test("An Apple notification issued exactly the maximum age and the clock skew ago is accepted")
    func appleNotificationAtItsMaximumAge() async throws {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("iat", fixture.time(-3600 - 60))
        _ = try await fixture.verifier.verifyAppleNotification(TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("A service account key file of exactly 64 KiB is read; one byte more is not")
    func serviceAccountSize() throws {
        let json = AdminSDKFixture.serviceAccountJSON
        let exact = Array(json.utf8) + Array(repeating: 0x20, count: GoogleServiceAccount.maximumSize - json.utf8.count)
        _ = try GoogleServiceAccount(json: exact)
        #expect(throws: GoogleServiceAccount.Malformed.self) { _ = try GoogleServiceAccount(json: exact + [0x20]) }
    }
}

extension P256.Signing.PrivateKey {
    fileprivate init?(sec1PEM: String) {
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: sec1PEM) else { return nil }
        self = key
    }
}
