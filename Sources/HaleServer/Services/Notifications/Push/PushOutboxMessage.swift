import Foundation

/// One push message to one device, written in the transaction of the event that causes it and delivered later by
/// whichever instance claims it. The device's token is read when it is sent, never copied here.
public struct PushOutboxMessage: Codable, Sendable, Equatable {
    /// Where a message is in its life.
    public enum Status: String, Codable, Sendable {
        /// Waiting for `nextAttemptAt`.
        case pending
        /// Claimed by an instance until `claimedUntil`; past that, another may claim it again.
        case sending
        /// Accepted by the gateway.
        case sent
        /// Given up: refused by the gateway, or out of attempts or time.
        case dead
        /// Not sendable: the gateway is not configured, or the device has no valid token any more.
        case skipped
    }

    /// The message id; sent to APNs as `apns-id` and logged.
    public var id: UUID
    /// Unique: the same event never enqueues the same message twice.
    public var dedupeKey: String
    /// The account.
    public var accountId: AccountID
    /// The device it goes to.
    public var deviceId: DeviceID
    /// `apns` or `fcm`, by the token the device had when the message was written.
    public var gateway: String
    /// `security_alert` or `confirmation_request`.
    public var kind: String
    /// The data fields, a JSON object of strings.
    public var data: String
    /// Messages with the same collapse id replace each other on the device.
    public var collapseId: String?
    /// The status's raw value.
    public var status: String
    /// Attempts made so far.
    public var attempts: Int64
    /// When it may next be tried.
    public var nextAttemptAt: Date
    /// After this it is not sent any more.
    public var expiresAt: Date
    /// The claim of the instance sending it; a late answer to an older claim changes nothing.
    public var claimId: UUID?
    /// Until when that claim holds.
    public var claimedUntil: Date?
    /// The last failure's reason code, never a payload.
    public var lastError: String?
    /// When it was written.
    public var createdAt: Date
    /// When it was sent, given up or skipped.
    public var finishedAt: Date?
}
