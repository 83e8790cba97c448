import Foundation

/// A verified address of an account.
public struct VerifiedEmail: Codable, Sendable, Equatable {
    /// The address, normalized.
    public var address: String
    /// How it was verified: `code`, or the provider that vouched for it (`google`, `apple`, `firebase`).
    public var verifiedBy: String
    /// When.
    public var verifiedAt: Date
}

/// A one-time code as stored: its salted hash, never the code.
struct EmailCodeRecord: Codable, Sendable, Equatable {
    var id: UUID
    var accountId: AccountID
    var address: String
    var purpose: String
    var codeHash: String
    var attempts: Int64
    var expiresAt: Date
    var usedAt: Date?
    var createdAt: Date
}

/// Stores accounts' verified addresses and the codes that verify them.
protocol EmailAddressRepository: Sendable {
    /// The account's verified addresses, in address order.
    func addresses(of account: AccountID) async throws -> [VerifiedEmail]
    /// The account a verified address belongs to, if any.
    func owner(of address: String) async throws -> AccountID?
    /// How many codes the account was sent since `date`.
    func codesMade(by account: AccountID, since date: Date) async throws -> Int
    /// Stores a new code, dropping the account's unused ones for the same address and purpose, and writes its mail,
    /// in one transaction.
    func issue(_ code: EmailCodeRecord, mail: MailOutboxMessage) async throws
    /// Counts one attempt against the account's newest live code for the address and purpose, if it has attempts
    /// left: the code after counting, or nil when there is none to try. Of racing attempts, each counts once.
    func attempt(
        account: AccountID, address: String, purpose: EmailCodePurpose, at date: Date, maximumAttempts: Int
    ) async throws -> EmailCodeRecord?
    /// Spends the code, once: false when it was spent already.
    func spend(_ code: UUID, at date: Date) async throws -> Bool
    /// Spends the code and stores the address as verified, with the audit event and notices, in one transaction;
    /// false when the code was spent already. Throws `EMAIL_ADDRESS_TAKEN` when another account verified it first.
    func verify(
        _ address: VerifiedEmail, of account: AccountID, spending code: UUID, at date: Date, audit: AuditAppend,
        notices: [MailOutboxMessage]
    ) async throws -> Bool
    /// Deletes codes made before `date`; returns how many.
    func purgeCodes(madeBefore date: Date) async throws -> Int
    /// Stores an address a provider verified, unless it is some account's already, with the audit event and the
    /// notices to the account's other addresses, in one transaction; true when stored.
    func adopt(_ address: VerifiedEmail, of account: AccountID, audit: AuditAppend, notices: [MailOutboxMessage])
        async throws -> Bool
    /// Removes the account's address with the audit event and notices, in one transaction; false when the account
    /// has no such address.
    func remove(_ address: String, of account: AccountID, audit: AuditAppend, notices: [MailOutboxMessage])
        async throws -> Bool
}
