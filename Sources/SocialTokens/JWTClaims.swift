import Foundation
import StrictJSON

/// A JWT claims set (RFC 7519 §4), with typed reads of the registered and provider claims.
struct JWTClaims: Sendable {
    private let members: [String: JSONValue]

    /// Wraps a decoded claims set.
    init(_ members: [String: JSONValue]) {
        self.members = members
    }

    /// The string claim `name`; nil when absent or not a string.
    func string(_ name: String) -> String? {
        members[name]?.string
    }

    /// The boolean claim `name`, also read from the strings `"true"` and `"false"`; nil otherwise.
    func flag(_ name: String) -> Bool? {
        members[name]?.flag
    }

    /// The NumericDate claim `name` (RFC 7519 §2); nil when absent or not a number.
    func date(_ name: String) -> Date? {
        members[name]?.number.map { Date(timeIntervalSince1970: $0) }
    }

    /// The claim `name` as decoded, whatever its type; nil when absent.
    func value(_ name: String) -> JSONValue? {
        members[name]
    }

    /// Whether the claim `name` is present, whatever its type.
    func contains(_ name: String) -> Bool {
        members[name] != nil
    }

    /// `aud` as a list (RFC 7519 §4.1.3: a string or an array of strings); nil when malformed or empty.
    var audiences: [String]? {
        switch members["aud"] {
        case .string(let audience): [audience]
        case .array(let values):
            values.isEmpty
                ? nil
                : values.reduce(into: [String]?([])) { result, value in
                    guard let audience = value.string else { return result = nil }
                    result?.append(audience)
                }
        default: nil
        }
    }
}
