import Foundation
import StrictJSON

extension AppleAccountEvent {
    /// An `event_time` at or above this is in milliseconds (any time after March 1973), below it in seconds (any
    /// time before the year 5138): Apple's documentation shows seconds, its notifications carry milliseconds.
    static let millisecondThreshold = 1e11

    /// Reads the `events` claim of a verified notification: a JSON object, or (as Apple sends it) a string holding
    /// one, with `type`, `sub` and `event_time`, and optionally `email` and `is_private_email`.
    init(events: JSONValue?, audience: String, id: String?) throws(SocialTokenError) {
        let members: [String: JSONValue]
        switch events {
        case .string(let text):
            guard let decoded = JSONObject.decode(Array(text.utf8)) else { throw .appleEventMalformed }
            members = decoded
        case .object(let object):
            members = object
        default:
            throw .appleEventMalformed
        }
        guard let type = members["type"]?.string else { throw .appleEventMalformed }
        guard let kind = Kind(appleType: type) else { throw .appleEventUnknown }
        guard let subject = members["sub"]?.string, !subject.isEmpty else { throw .missingSubject }
        guard let eventTime = members["event_time"]?.number.flatMap(Self.date(eventTime:)) else {
            throw .appleEventMalformed
        }
        self.init(
            kind: kind, subject: subject, email: try Self.email(members["email"]),
            isPrivateEmail: try Self.isPrivateEmail(members["is_private_email"]), eventTime: eventTime,
            audience: audience, id: id)
    }

    /// `event_time` in seconds or milliseconds since 1970; nil when negative or not finite.
    private static func date(eventTime: Double) -> Date? {
        guard eventTime.isFinite, eventTime >= 0 else { return nil }
        let seconds = eventTime >= millisecondThreshold ? eventTime / 1000 : eventTime
        return Date(timeIntervalSince1970: seconds)
    }

    /// `email`: absent or null is nil; anything but a non-empty string is malformed.
    private static func email(_ value: JSONValue?) throws(SocialTokenError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let email)? where !email.isEmpty: return email
        default: throw .appleEventMalformed
        }
    }

    /// `is_private_email`: a boolean or the strings "true" and "false"; absent or null is false.
    private static func isPrivateEmail(_ value: JSONValue?) throws(SocialTokenError) -> Bool {
        switch value {
        case nil, .null?: return false
        case let value?:
            guard let flag = value.flag else { throw .appleEventMalformed }
            return flag
        }
    }
}
