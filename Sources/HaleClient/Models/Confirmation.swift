import ByteEncoding
import Crypto
import Foundation
import WebAuthn

/// An action waiting for the person to approve or deny it on a device.
public struct Confirmation: Sendable, Hashable, Decodable {
    /// An answer.
    public enum Decision: String, Sendable, CaseIterable {
        /// The person approved the action.
        case approve
        /// The person denied it.
        case deny
    }

    /// Its id.
    public let id: String
    /// The account asked.
    public let accountId: String
    /// What kind of action, such as `payment.approve`.
    public let actionType: String
    /// The action's canonical JSON text: what the app shows and signs, byte for byte.
    public let actionPayload: String
    /// `pending`, `approved`, `denied` or `expired`.
    public let status: String
    /// When it was asked.
    public let createdAt: Date
    /// When it expires.
    public let expiresAt: Date
    /// The answer, once given.
    public let decision: String?
    /// When it was answered.
    public let answeredAt: Date?
    /// The device that answered.
    public let deviceId: String?

    /// What the device signs to answer with `decision`, as a sign-in challenge.
    public func challenge(for decision: Decision) -> String {
        HaleClient.confirmationChallenge(
            id: id, actionType: actionType, actionPayload: actionPayload, decision: decision.rawValue)
    }
}

extension HaleClient {
    /// What a device signs to answer a confirmation, as a sign-in challenge: base64url (unpadded) of the SHA-256 of
    /// `hale-confirmation-v1`, the lowercase id, the action type, the decision (`approve` or `deny`) and the payload
    /// text exactly as shown, joined by newlines.
    public static func confirmationChallenge(
        id: String, actionType: String, actionPayload: String, decision: String
    ) -> String {
        let lines = ["hale-confirmation-v1", id.lowercased(), actionType, decision, actionPayload]
        return Base64URL.encode(Array(SHA256.hash(data: Array(lines.joined(separator: "\n").utf8))))
    }
}
