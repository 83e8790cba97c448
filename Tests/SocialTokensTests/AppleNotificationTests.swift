import Foundation
import SocialTokens
import Testing

@Suite("Apple server-to-server notifications")
struct AppleNotificationTests {
    @Test("Each documented kind, as Apple sends it", arguments: AppleAccountEvent.Kind.allCases)
    func eachKind(kind: AppleAccountEvent.Kind) async throws {
        let fixture = await Fixture()
        var event = fixture.appleEvent(kind.rawValue)
        if kind == .emailDisabled || kind == .emailEnabled {
            event["email"] = "x7d2k9p4qz@privaterelay.appleid.com"
            event["is_private_email"] = "true"
        }
        let payload = TestJWT.rs256(fixture.appleNotificationClaims(event), kid: "apple-1")
        let verified = try await fixture.verifier.verifyAppleNotification(payload)
        let hasEmail = kind == .emailDisabled || kind == .emailEnabled
        #expect(
            verified
                == AppleAccountEvent(
                    kind: kind, subject: Fixture.appleSubject,
                    email: hasEmail ? "x7d2k9p4qz@privaterelay.appleid.com" : nil, isPrivateEmail: hasEmail,
                    eventTime: Date(timeIntervalSince1970: fixture.time(-2)), audience: Fixture.appleBundleID,
                    id: Fixture.appleNotificationID))
    }

    @Test("account-deleted, the spelling of Apple's current documentation, is an account deletion")
    func accountDeletedSpelling() async throws {
        let fixture = await Fixture()
        let payload = TestJWT.rs256(
            fixture.appleNotificationClaims(fixture.appleEvent("account-deleted")), kid: "apple-1")
        #expect(try await fixture.verifier.verifyAppleNotification(payload).kind == .accountDelete)
    }

    @Test("events as an object, event_time in seconds, booleans, no jti, the web's service id")
    func documentedShape() async throws {
        let fixture = await Fixture()
        let event: [String: Any] = [
            "type": "email-enabled", "sub": Fixture.appleSubject, "event_time": Int(fixture.time(-30)),
            "email": "ada@example.com", "is_private_email": false,
        ]
        let claims = fixture.appleNotificationClaims().with("events", event).with("jti", nil)
            .with("aud", "app.hale.web")
        let verified = try await fixture.verifier.verifyAppleNotification(TestJWT.rs256(claims, kid: "apple-1"))
        #expect(
            verified
                == AppleAccountEvent(
                    kind: .emailEnabled, subject: Fixture.appleSubject, email: "ada@example.com",
                    isPrivateEmail: false, eventTime: Date(timeIntervalSince1970: fixture.time(-30)),
                    audience: "app.hale.web", id: nil))
    }

    @Test("is_private_email as a boolean true; email null")
    func booleanPrivateEmail() async throws {
        let fixture = await Fixture()
        var event = fixture.appleEvent("email-disabled")
        event["is_private_email"] = true
        event["email"] = NSNull()
        let payload = TestJWT.rs256(fixture.appleNotificationClaims(event), kid: "apple-1")
        let verified = try await fixture.verifier.verifyAppleNotification(payload)
        #expect(verified.isPrivateEmail)
        #expect(verified.email == nil)
    }

    @Test("Issued 59 minutes ago is still fresh; the age limit is configurable")
    func maximumAge() async throws {
        let fixture = await Fixture()
        let claims = fixture.appleNotificationClaims().with("iat", fixture.time(-59 * 60))
        _ = try await fixture.verifier.verifyAppleNotification(TestJWT.rs256(claims, kid: "apple-1"))
        let strict = await Fixture { $0.appleNotificationMaximumAge = .seconds(60) }
        await strict.expectNotification(
            .invalidToken("apple_notification_stale"), TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("Notifications share the identity tokens' cached key set")
    func keySetCached() async throws {
        let fixture = await Fixture()
        let identityToken = TestJWT.rs256(fixture.appleClaims(), kid: "apple-1")
        _ = try await fixture.verifier.verify(provider: .apple, token: identityToken, nonce: nil)
        for kind in AppleAccountEvent.Kind.allCases {
            let payload = TestJWT.rs256(
                fixture.appleNotificationClaims(fixture.appleEvent(kind.rawValue)), kid: "apple-1")
            _ = try await fixture.verifier.verifyAppleNotification(payload)
        }
        #expect(await fixture.verifier.keySetFetchCount(Fixture.appleKeys) == 1)
    }
}
