import ByteEncoding
import Crypto
import Foundation

/// What a device signs to answer a confirmation: the SHA-256 of a canonical encoding of the confirmation's id,
/// action type, payload and the decision.
///
/// The encoding is the UTF-8 of five lines joined by `\n`:
///
///     hale-confirmation-v1
///     <confirmation id, lowercase>
///     <action type>
///     <decision: approve or deny>
///     <action payload: the canonical JSON text Hale answered, byte for byte>
///
/// The first four lines cannot hold a newline (an id, a checked action type and a decision), and the payload is
/// last, so no two confirmations encode the same. The payload is not re-serialized by anyone: Hale makes its
/// canonical text once, stores it, shows it to the app, and the app signs that very text, so what is signed is
/// exactly what the person was shown. The device signs the base64url (unpadded) of the digest as its sign-in
/// challenge, with its key's own convention.
public struct ConfirmationMessage: Sendable, Equatable {
    /// The decision, as signed.
    public enum Decision: String, Sendable, Codable, CaseIterable {
        /// The person approved the action.
        case approve
        /// The person denied it.
        case deny
    }

    /// The encoding's first line, naming its version.
    public static let version = "hale-confirmation-v1"

    let confirmationId: ConfirmationID
    let actionType: String
    let actionPayload: String
    let decision: Decision

    /// The message for these fields.
    public init(confirmationId: ConfirmationID, actionType: String, actionPayload: String, decision: Decision) {
        self.confirmationId = confirmationId
        self.actionType = actionType
        self.actionPayload = actionPayload
        self.decision = decision
    }

    /// The encoded bytes.
    public var encoded: [UInt8] {
        Array(
            [
                Self.version, confirmationId.rawValue.uuidString.lowercased(), actionType, decision.rawValue,
                actionPayload,
            ].joined(separator: "\n").utf8)
    }

    /// What the device signs: base64url of SHA-256 of `encoded`, as a sign-in challenge is signed.
    public var challenge: String {
        Base64URL.encode(Array(SHA256.hash(data: encoded)))
    }
}
