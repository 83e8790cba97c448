import Foundation

/// A confirmation request: an action the app's backend asks the person to approve on a device, and the answer.
public struct Confirmation: Codable, Sendable, Equatable {
    /// Its identifier, in the push and in the signed message.
    public var id: ConfirmationID
    /// The account asked.
    public var accountId: AccountID
    /// What is asked, such as `payment.approve`.
    public var actionType: String
    /// The action's details as canonical JSON text: what the app shows, and what the device signs, byte for byte.
    public var actionPayload: String
    /// The admin API key that created it, or `askedByHale`.
    public var createdByKeyId: Int64
    /// When it was created.
    public var createdAt: Date
    /// When it stops taking answers.
    public var expiresAt: Date
    /// `approve` or `deny`, once answered.
    public var decision: String?
    /// When it was answered.
    public var answeredAt: Date?
    /// The device whose key signed the answer.
    public var answeredByDeviceId: DeviceID?
    /// The answer's signature, kept as evidence of what was approved.
    public var signature: String?

    /// `createdByKeyId` of a confirmation Hale asks itself (a new device's recovery): no admin key has id 0, and
    /// its answer goes to no webhook, since the app's backend did not ask.
    public static let askedByHale: Int64 = 0

    /// Where it stands.
    public enum Status: String, Sendable, Codable {
        /// Waiting for an answer.
        case pending
        /// Approved with a verified signature.
        case approved
        /// Denied with a verified signature.
        case denied
        /// Not answered in time.
        case expired
    }

    /// Where it stands at `date`.
    public func status(at date: Date) -> Status {
        switch decision {
        case ConfirmationMessage.Decision.approve.rawValue: .approved
        case ConfirmationMessage.Decision.deny.rawValue: .denied
        default: date < expiresAt ? .pending : .expired
        }
    }
}
