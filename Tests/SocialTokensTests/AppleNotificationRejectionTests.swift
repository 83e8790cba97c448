import Foundation
import SocialTokens
import Testing

@Suite("Apple server-to-server notifications, refused")
struct AppleNotificationRejectionTests {
    @Test("Signed by a key that is not Apple's")
    func badSignature() async {
        let fixture = await Fixture()
        let payload = TestJWT.rs256(fixture.appleNotificationClaims(), kid: "apple-1", key: TestKeys.otherRSA)
        await fixture.expectNotification(.invalidToken("bad signature"), payload)
    }

    @Test("A kid Apple's key set does not hold")
    func unknownKeyID() async {
        let fixture = await Fixture()
        await fixture.expectNotification(
            .invalidToken("unknown key id"), TestJWT.rs256(fixture.appleNotificationClaims(), kid: "apple-9"))
    }

    @Test("From another issuer")
    func wrongIssuer() async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("iss", "https://appleid.apple.com/")
        await fixture.expectNotification(.invalidToken("wrong issuer"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("For another app")
    func wrongAudience() async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("aud", "com.example.other")
        await fixture.expectNotification(.invalidToken("wrong audience"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("For two apps at once, even two of ours")
    func twoAudiences() async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("aud", [Fixture.appleBundleID, "app.hale.web"])
        await fixture.expectNotification(.invalidToken("wrong audience"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("Issued more than an hour (and the clock skew) ago: a replay")
    func staleIssuedAt() async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("iat", fixture.time(-3600 - 61))
        await fixture.expectNotification(
            .invalidToken("apple_notification_stale"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("Issued in the future beyond the clock skew")
    func futureIssuedAt() async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("iat", fixture.time(61))
        await fixture.expectNotification(.invalidToken("issued in the future"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("Without iat")
    func missingIssuedAt() async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("iat", nil)
        await fixture.expectNotification(.invalidToken("missing issued-at"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("Expired")
    func expired() async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("exp", fixture.time(-61))
        await fixture.expectNotification(.invalidToken("expired"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("Without exp")
    func missingExpiry() async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("exp", nil)
        await fixture.expectNotification(.invalidToken("missing expiry"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("alg none, refused before any key is fetched")
    func algNone() async {
        let fixture = await Fixture()
        let payload = TestJWT.make(
            header: ["alg": "none", "kid": "apple-1"], claims: fixture.appleNotificationClaims(), signer: .empty)
        await fixture.expectNotification(.invalidToken("unsupported algorithm"), payload)
        #expect(await fixture.provider.requests.isEmpty)
    }

    @Test("HS256 keyed with Apple's public key")
    func hs256() async throws {
        let fixture = await Fixture()
        let publicKey = Array(TestKeys.rsa.publicKey.pemRepresentation.utf8)
        let payload = TestJWT.make(
            header: ["alg": "HS256", "kid": "apple-1"], claims: fixture.appleNotificationClaims(),
            signer: .hmac(publicKey))
        await fixture.expectNotification(.invalidToken("unsupported algorithm"), payload)
    }

    @Test("ES256, even with an EC key in Apple's set: Apple signs notifications with RS256")
    func es256() async {
        let fixture = await Fixture()
        await fixture.publish(
            Fixture.appleKeys,
            [
                TestKeySet.rsa(TestKeys.rsa.publicKey, kid: "apple-1"),
                TestKeySet.p256(TestKeys.p256.publicKey, kid: "apple-ec"),
            ])
        let payload = TestJWT.make(
            header: ["alg": "ES256", "kid": "apple-ec"], claims: fixture.appleNotificationClaims(),
            signer: .p256(TestKeys.p256))
        await fixture.expectNotification(.invalidToken("unsupported algorithm"), payload)
    }

    @Test("An event type Apple does not document")
    func unknownKind() async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims(fixture.appleEvent("email-changed"))
        await fixture.expectNotification(.invalidToken("apple_event_unknown"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test(
        "events that are not a JSON object, or not there",
        arguments: [
            "{\"type\":\"consent-revoked\"", "not json", "[]", "", "\"consent-revoked\"",
        ])
    func eventsNotJSON(events: String) async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("events", events)
        await fixture.expectNotification(
            .invalidToken("apple_event_malformed"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("events of another JSON type, or absent")
    func eventsWrongType() async {
        let fixture = await Fixture()
        for events in [[fixture.appleEvent()] as Any, 42, true, nil] {
            let claims = fixture.appleNotificationClaims().with("events", events)
            await fixture.expectNotification(
                .invalidToken("apple_event_malformed"), TestJWT.rs256(claims, kid: "apple-1"))
        }
    }

    @Test("An Apple identity token is not a notification")
    func identityToken() async {
        let fixture = await Fixture()
        await fixture.expectNotification(
            .invalidToken("apple_event_malformed"), TestJWT.rs256(fixture.appleClaims(), kid: "apple-1"))
    }

    @Test("An event without sub, or with an empty one")
    func missingSubject() async {
        let fixture = await Fixture()
        for subject in [nil, "", 42] as [Any?] {
            let claims = fixture.appleNotificationClaims(fixture.appleEvent().with("sub", subject))
            await fixture.expectNotification(.invalidToken("missing subject"), TestJWT.rs256(claims, kid: "apple-1"))
        }
    }

    @Test(
        "An event member of the wrong type",
        arguments: [
            ("type", nil), ("type", 1), ("event_time", nil), ("event_time", "1750000000"), ("event_time", -1),
            ("is_private_email", "yes"), ("is_private_email", 1), ("email", 42), ("email", ""),
        ] as [(String, (any Sendable)?)])
    func malformedEvent(member: String, value: (any Sendable)?) async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims(fixture.appleEvent().with(member, value))
        await fixture.expectNotification(
            .invalidToken("apple_event_malformed"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("A jti that is not a string")
    func jtiNotString() async {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("jti", 7)
        await fixture.expectNotification(.invalidToken("invalid claims"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("Without Apple audiences, nothing is accepted")
    func notConfigured() async {
        let fixture = await Fixture { $0.appleAudiences = [] }
        await fixture.expectNotification(
            .notConfigured(.apple), TestJWT.rs256(fixture.appleNotificationClaims(), kid: "apple-1"))
        #expect(await fixture.provider.requests.isEmpty)
    }
}
