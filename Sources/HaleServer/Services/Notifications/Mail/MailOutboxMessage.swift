import Foundation

/// One mail to one address, written in the transaction of the event that causes it and sent later by whichever
/// instance claims it. It keeps what to say (`kind` and `data`), not the words: those are rendered when it is sent.
struct MailOutboxMessage: Codable, Sendable, Equatable {
    /// Where a message is in its life.
    enum Status: String, Codable, Sendable {
        /// Waiting for `nextAttemptAt`.
        case pending
        /// Claimed by an instance until `claimedUntil`; past that, another may claim it again.
        case sending
        /// Accepted by the mail server, or written to the mail directory.
        case sent
        /// Given up: refused for good, or out of attempts or time.
        case dead
    }

    /// The message id, also its `Message-ID`.
    var id: UUID
    /// Unique: the same event never enqueues the same message twice.
    var dedupeKey: String
    /// The account it is about, if any.
    var accountId: AccountID?
    /// The address it goes to.
    var recipient: String
    /// A `MailKind`'s raw value.
    var kind: String
    /// The data fields, a JSON object of strings, sealed when a key-encryption key is configured; emptied once the
    /// message is finished.
    var data: String
    /// The status's raw value.
    var status: String
    /// Attempts made so far.
    var attempts: Int64
    /// When it may next be tried.
    var nextAttemptAt: Date
    /// After this it is not sent any more.
    var expiresAt: Date
    /// The claim of the instance sending it.
    var claimId: UUID?
    /// Until when that claim holds.
    var claimedUntil: Date?
    /// The last failure's reason, never a body.
    var lastError: String?
    /// When it was written.
    var createdAt: Date
    /// When it was sent or given up.
    var finishedAt: Date?
}
