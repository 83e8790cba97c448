import Foundation
import StrictJSON

/// A confirmation request as the app's backend sends it, checked field by field.
public struct ConfirmationDraft: Sendable {
    /// The account to ask.
    public var accountId: AccountID
    /// What is asked: a lowercase name such as `payment.approve`.
    public var actionType: String?
    /// The action's details, a JSON object shown to the person.
    var actionPayload: JSONValue?
    /// Seconds it takes answers; 300 unless given.
    public var expiresIn: Int?

    /// The default and the bounds of `expiresIn`, in seconds.
    public static let defaultLifetime = 300
    /// The shortest lifetime.
    public static let lifetimes = 30...3_600
    /// The longest payload, as the JSON string it travels as in the push: push services carry 4 KB in all.
    public static let maximumPayloadBytes = 2_048

    /// The account, the action type, the payload's canonical text and the lifetime, or an `InvalidInput` naming what
    /// is wrong.
    func checked() throws(InvalidInput) -> (account: AccountID, actionType: String, payload: String, lifetime: Int) {
        guard let actionType, Self.isActionType(actionType) else {
            throw InvalidInput(
                "actionType",
                .form("1 to 64 characters: a lowercase letter, then lowercase letters, digits, . _ : or -"))
        }
        guard case .object = actionPayload ?? .object([:]) else {
            throw InvalidInput("actionPayload", .form("a JSON object"))
        }
        let payload = CanonicalJSON.text(of: actionPayload ?? .object([:]))
        // Measured as it travels: a JSON string inside the push's data, where quotes and slashes are escaped again.
        let travelling = (try? JSONSerialization.data(withJSONObject: [payload]).count - 2) ?? Int.max
        guard travelling <= Self.maximumPayloadBytes else {
            let limit = "at most \(Self.maximumPayloadBytes) bytes as canonical JSON; it travels in the push"
            throw InvalidInput("actionPayload", .described("actionPayload is \(limit)"))
        }
        let lifetime = expiresIn ?? Self.defaultLifetime
        guard Self.lifetimes.contains(lifetime) else {
            throw InvalidInput(
                "expiresIn",
                .described("expiresIn is \(Self.lifetimes.lowerBound) to \(Self.lifetimes.upperBound) seconds"))
        }
        return (accountId, actionType, payload, lifetime)
    }

    static func isActionType(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...64).contains(bytes.count), let first = bytes.first, (0x61...0x7A).contains(first) else {
            return false
        }
        return bytes.allSatisfy { byte in
            (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || [0x2E, 0x5F, 0x3A, 0x2D].contains(byte)
        }
    }
}
