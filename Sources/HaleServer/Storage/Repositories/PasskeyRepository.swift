import Foundation
import WebAuthn

/// Stores passkeys and user handles. Every account-scoped call takes the account.
protocol PasskeyRepository: Sendable {
    /// The account's user handle, if it has one.
    func userHandle(of account: AccountID) async throws -> String?
    /// Stores the account's user handle.
    func setUserHandle(_ handle: String, of account: AccountID) async throws
    /// The account with this user handle.
    func account(forUserHandle handle: String) async throws -> AccountID?
    /// Inserts a credential and appends `audit`, in one transaction; throws `CONFLICT` when its credential ID is
    /// registered already.
    func insert(_ credential: PasskeyCredential, audit: AuditAppend?) async throws
    /// The credential with this WebAuthn credential ID.
    func find(credentialID: String) async throws -> PasskeyCredential?
    /// The account's credentials, oldest first.
    func credentials(of account: AccountID) async throws -> [PasskeyCredential]
    /// Records a sign-in, only if `signCount` still exceeds the stored count (or both are zero); returns whether it
    /// did, so two racing sign-ins with one counter value cannot both succeed.
    func recordSignIn(_ id: UUID, signCount: Int64, backupState: Bool, at date: Date) async throws -> Bool
    /// Marks a credential as showing `signal` at `date`, and appends `audit`, in one transaction.
    func markSuspectedClone(_ id: UUID, signal: CloneSignal, at date: Date, audit: AuditAppend) async throws
    /// Records a sign-in allowed despite a clone signal: its time only, never a lower counter or another backup
    /// eligibility.
    func recordFlaggedSignIn(_ id: UUID, at date: Date) async throws
    /// Renames one of the account's credentials; returns whether it exists.
    func rename(_ id: UUID, of account: AccountID, to name: String) async throws -> Bool
    /// Deletes one of the account's credentials; returns whether it existed.
    func delete(_ id: UUID, of account: AccountID, audit: AuditAppend) async throws -> Bool
}
