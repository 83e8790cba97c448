import Foundation
import SocialTokens
import Testing

/// Sign in with Apple server-to-server notifications as Apple sends them, on the shared ``Fixture``.
extension Fixture {
    static let appleSubject = "001234.abcdef0123456789.1234"
    static let appleNotificationID = "yctpp1ZHaGCzaNB9PWB4DA"

    /// An event of `type` as Apple's notifications carry it: `event_time` in milliseconds, two seconds ago.
    func appleEvent(_ type: String = "consent-revoked") -> [String: Any] {
        ["type": type, "sub": Self.appleSubject, "event_time": Int(time(-2) * 1000)]
    }

    /// The claims of a notification issued a second ago, with `events` as the JSON string Apple sends.
    func appleNotificationClaims(_ event: [String: Any]? = nil) -> [String: Any] {
        [
            "iss": "https://appleid.apple.com", "aud": Self.appleBundleID, "iat": time(-1), "exp": time(86_399),
            "jti": Self.appleNotificationID, "events": Self.jsonString(event ?? appleEvent()),
        ]
    }

    /// `object` as a JSON string.
    static func jsonString(_ object: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Expects `verifyAppleNotification` to throw `expected`.
    func expectNotification(
        _ expected: SocialTokenError, _ payload: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do throws(SocialTokenError) {
            let event = try await verifier.verifyAppleNotification(payload)
            Issue.record("expected \(expected), but \(event.kind) was accepted", sourceLocation: sourceLocation)
        } catch {
            #expect(error == expected, sourceLocation: sourceLocation)
        }
    }
}
