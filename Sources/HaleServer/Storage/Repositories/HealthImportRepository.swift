import Foundation

/// An import claimed by this instance, for as long as its claim holds.
struct ClaimedHealthImport: Sendable {
    let record: HealthImport
    let claim: UUID
}

/// Stores uploaded imports and their progress. Every call by a person is scoped by the account.
protocol HealthImportRepository: Sendable {
    /// Stores a new import, `uploading`, unless the account has one uploading, queued or running: then returns that
    /// one's id.
    func reserve(_ record: HealthImport) async throws -> UUID?
    /// Notes that the account's upload `id` is still arriving.
    func touchUpload(_ id: UUID, of account: AccountID, at date: Date) async throws
    /// Queues the account's upload `id`, complete at `bytes`; nil when it is no longer uploading (swept away).
    func queueUpload(_ id: UUID, of account: AccountID, bytes: Int64, at date: Date) async throws -> HealthImport?
    /// Deletes the account's upload `id` while it is still uploading: it was refused or cut off.
    func abandonUpload(_ id: UUID, of account: AccountID) async throws
    /// Deletes uploads that have not moved since `date` (their instance died in the middle); returns their ids.
    func abandonUploads(idleSince date: Date) async throws -> [UUID]
    /// The account's import.
    func find(_ id: UUID, of account: AccountID) async throws -> HealthImport?
    /// The account's imports, newest first.
    func imports(of account: AccountID, limit: Int) async throws -> [HealthImport]
    /// Claims the import that has waited longest in the queue (queued, or running with a lapsed claim), for `lease`;
    /// one caller at a time on any instance.
    func claimNext(at date: Date, lease: Duration) async throws -> ClaimedHealthImport?
    /// Whether an import of another account than `account` waits to be claimed at `date`.
    func othersWaiting(besides account: AccountID, at date: Date) async throws -> Bool
    /// Records progress and extends the claim; false when the claim was lost.
    func progress(
        _ claimed: ClaimedHealthImport, phase: String, recordsRead: Int, fraction: Double, at date: Date,
        lease: Duration
    ) async throws -> Bool
    /// Stores a checkpoint in `work` (the transaction of the batch it follows); throws `claimLost` when the claim
    /// was lost, so that the batch is rolled back with it.
    func checkpoint(
        _ claimed: ClaimedHealthImport, _ checkpoint: AppleHealthImport.Checkpoint, at date: Date,
        in work: UnitOfWork
    ) async throws
    /// Ends a claimed import as completed or failed; false when the claim was lost.
    func finish(
        _ claimed: ClaimedHealthImport, as status: HealthImport.Status, checkpoint: AppleHealthImport.Checkpoint,
        error: (code: String, message: String)?, at date: Date
    ) async throws -> Bool
    /// Gives a claimed import back to the queue at once, without counting the pass as an attempt: this instance is
    /// stopping (the import keeps its place), or its turn is over (`requeued`: it goes to the back of the queue).
    /// False when the claim was lost.
    func release(_ claimed: ClaimedHealthImport, at date: Date, requeued: Bool) async throws -> Bool
    /// The ids of every import still uploading, queued or running, on any account: their files must be kept.
    func unfinishedIDs() async throws -> Set<UUID>
}

/// The claim on an import passed to another instance (this one's lease lapsed): what it was doing is undone.
struct HealthImportClaimLost: Error {}
