import Foundation
import SQLKit

/// A recovery that waits before it opens a recovery session.
public struct AccountRecoveryRecord: Codable, Sendable, Equatable {
    /// The recovery's id.
    public var id: UUID
    /// The account being recovered; nil for a request naming an address no account verified.
    public var accountId: AccountID?
    /// How it was started: `email`, `operator` or `device`.
    public var method: String
    /// Two digits its starter sees and an approving device must type, so nobody approves a stranger's request.
    var pairingCode: String
    /// The SHA-256 of the claim token its starter holds.
    var claimHash: String
    /// When it was started.
    public var requestedAt: Date
    /// When it may be claimed.
    public var readyAt: Date
    /// When it lapses unclaimed.
    public var expiresAt: Date
    /// When a signed-in device cancelled it.
    public var cancelledAt: Date?
    /// When its recovery session was opened, or its social identity linked.
    public var claimedAt: Date?
    /// For a social identity waiting to join the account: its provider.
    public var linkProvider: String? = nil
    /// For a social identity waiting to join the account: its subject at the provider.
    public var linkSubject: String? = nil
    /// For a new device's request: the address it named, normalized.
    var address: String? = nil
}

extension AccountRecoveryRepository {
    /// Stores a new recovery with its audit event.
    func create(_ recovery: AccountRecoveryRecord, audit: AuditAppend) async throws {
        try await create(recovery, audit: audit, asking: nil)
    }
}

/// Stores waiting recoveries.
protocol AccountRecoveryRepository: Sendable {
    /// Stores a new recovery with its audit event and, when given, the confirmation that asks the account's devices
    /// to approve it, with its pushes.
    func create(_ recovery: AccountRecoveryRecord, audit: AuditAppend, asking confirmation: Confirmation?) async throws
    /// The account's recoveries neither cancelled, claimed nor lapsed at `date`, oldest first.
    func waiting(of account: AccountID, at date: Date) async throws -> [AccountRecoveryRecord]
    /// Stores a request that names no account: it answers as a real one does, and is never approved.
    func createUnowned(_ recovery: AccountRecoveryRecord) async throws
    /// Makes the account's waiting recovery ready now, if `pairingCode` is its own, with its audit event; the record
    /// as approved, or nil.
    func approve(
        _ id: UUID, of account: AccountID, pairingCode: String, at date: Date, claimableUntil: Date,
        audit: AuditAppend
    ) async throws -> AccountRecoveryRecord?
    /// Cancels the account's waiting recovery, with its audit event; false when there is none such.
    func cancel(_ id: UUID, of account: AccountID, at date: Date, audit: AuditAppend) async throws -> Bool
    /// Claims the recovery, once, if its token matches and it is ready, neither cancelled nor lapsed: the record as
    /// claimed, or nil. Of two claims racing, one wins.
    func claim(_ id: UUID, claimHash: String, at date: Date) async throws -> AccountRecoveryRecord?
    /// The newest waiting link of the social identity `(provider, subject)` to the account, whatever its state.
    func link(of account: AccountID, provider: String, subject: String) async throws -> AccountRecoveryRecord?
    /// Marks a ready link used, once: false when it is not ready, or was cancelled, used or lapsed.
    func useLink(_ id: UUID, at date: Date) async throws -> Bool
    /// How many new devices' requests named `address` since `date`, whether or not an account verified it.
    func requests(naming address: String, since date: Date) async throws -> Int
    /// Deletes recoveries that lapsed, unclaimed, before `date`, and those claimed or cancelled before it.
    func purge(before date: Date) async throws -> Int
    /// The recovery whose token this is, whatever its state.
    func find(_ id: UUID, claimHash: String) async throws -> AccountRecoveryRecord?
}

/// `AccountRecoveryRepository` on SQL.
struct SQLAccountRecoveryRepository: AccountRecoveryRepository {
    let database: HaleDatabase

    func create(_ recovery: AccountRecoveryRecord, audit: AuditAppend, asking confirmation: Confirmation?)
        async throws
    {
        try await database.writeTransaction { database in
            try await database.sql.insert(into: "account_recoveries")
                .model(recovery, keyEncodingStrategy: .convertToSnakeCase, nilEncodingStrategy: .asNil).run()
            try await SQLAuditRepository.append(audit, in: database)
            guard let confirmation else { return }
            try await database.sql.insert(into: "confirmations")
                .model(confirmation, keyEncodingStrategy: .convertToSnakeCase, nilEncodingStrategy: .asNil).run()
            try await SQLPushOutboxRepository.enqueueRequest(for: confirmation, in: database)
        }
    }

    func createUnowned(_ recovery: AccountRecoveryRecord) async throws {
        try await database.sql.insert(into: "account_recoveries")
            .model(recovery, keyEncodingStrategy: .convertToSnakeCase, nilEncodingStrategy: .asNil).run()
    }

    func approve(
        _ id: UUID, of account: AccountID, pairingCode: String, at date: Date, claimableUntil: Date,
        audit: AuditAppend
    ) async throws -> AccountRecoveryRecord? {
        try await database.writeTransaction { database in
            let approved = try await database.sql.update("account_recoveries").set("ready_at", to: date)
                .set("expires_at", to: claimableUntil)
                .where("id", .equal, id).where("account_id", .equal, account).where("pairing_code", .equal, pairingCode)
                .where("cancelled_at", .is, SQLLiteral.null).where("claimed_at", .is, SQLLiteral.null)
                .where("expires_at", .greaterThan, date).returning(SQLLiteral.all)
                .first(decoding: AccountRecoveryRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
            guard let approved else { return nil }
            try await SQLAuditRepository.append(audit, in: database)
            return approved
        }
    }

    func waiting(of account: AccountID, at date: Date) async throws -> [AccountRecoveryRecord] {
        try await database.sql.select().column("*").from("account_recoveries").where("account_id", .equal, account)
            .where("cancelled_at", .is, SQLLiteral.null).where("claimed_at", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, date).orderBy("requested_at")
            .all(decoding: AccountRecoveryRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func cancel(_ id: UUID, of account: AccountID, at date: Date, audit: AuditAppend) async throws -> Bool {
        try await database.writeTransaction { database in
            let cancelled = try await database.sql.update("account_recoveries").set("cancelled_at", to: date)
                .where("id", .equal, id).where("account_id", .equal, account)
                .where("cancelled_at", .is, SQLLiteral.null).where("claimed_at", .is, SQLLiteral.null)
                .where("expires_at", .greaterThan, date).returning("id").all()
            guard cancelled.count == 1 else { return false }
            try await SQLAuditRepository.append(audit, in: database)
            return true
        }
    }

    func claim(_ id: UUID, claimHash: String, at date: Date) async throws -> AccountRecoveryRecord? {
        try await database.sql.update("account_recoveries").set("claimed_at", to: date)
            .where("id", .equal, id).where("claim_hash", .equal, claimHash)
            .where("cancelled_at", .is, SQLLiteral.null).where("claimed_at", .is, SQLLiteral.null)
            .where("ready_at", .lessThanOrEqual, date).where("expires_at", .greaterThan, date)
            .returning(SQLLiteral.all)
            .first(decoding: AccountRecoveryRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func link(of account: AccountID, provider: String, subject: String) async throws -> AccountRecoveryRecord? {
        try await database.sql.select().column("*").from("account_recoveries").where("account_id", .equal, account)
            .where("link_provider", .equal, provider).where("link_subject", .equal, subject)
            .orderBy("requested_at", .descending).limit(1)
            .first(decoding: AccountRecoveryRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func useLink(_ id: UUID, at date: Date) async throws -> Bool {
        try await database.sql.update("account_recoveries").set("claimed_at", to: date).where("id", .equal, id)
            .where("cancelled_at", .is, SQLLiteral.null).where("claimed_at", .is, SQLLiteral.null)
            .where("ready_at", .lessThanOrEqual, date).where("expires_at", .greaterThan, date).returning("id").all()
            .count == 1
    }

    func requests(naming address: String, since date: Date) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("account_recoveries").where("address", .equal, address)
            .where("requested_at", .greaterThanOrEqual, date).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    func purge(before date: Date) async throws -> Int {
        // A link that was cancelled is kept: it refuses its identity for good (`AccountRecoveries.linkDecision`).
        try await database.sql.delete(from: "account_recoveries")
            .where { $0.where("expires_at", .lessThan, date).orWhere("claimed_at", .lessThan, date) }
            .where("link_provider", .is, SQLLiteral.null).returning("id").all().count
    }

    func find(_ id: UUID, claimHash: String) async throws -> AccountRecoveryRecord? {
        try await database.sql.select().column("*").from("account_recoveries").where("id", .equal, id)
            .where("claim_hash", .equal, claimHash)
            .first(decoding: AccountRecoveryRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }
}
