import Foundation

/// An import claimed by this instance, for as long as its claim holds.
struct ClaimedHealthImport: Sendable {
    let record: HealthImport
    let claim: UUID
}

/// Stores uploaded imports and their progress. Every call by a person is scoped by the account.
protocol HealthImportRepository: Sendable {
    /// Stores a new import, queued, unless the account has one queued or running: then returns that one's id.
    func enqueue(_ record: HealthImport) async throws -> UUID?
    /// The account's import.
    func find(_ id: UUID, of account: AccountID) async throws -> HealthImport?
    /// The account's imports, newest first.
    func imports(of account: AccountID, limit: Int) async throws -> [HealthImport]
    /// Claims the oldest queued import, or a running one whose claim lapsed, for `lease`; one caller at a time on any
    /// instance.
    func claimNext(at date: Date, lease: Duration) async throws -> ClaimedHealthImport?
    /// Records progress and extends the claim; false when the claim was lost.
    func progress(
        _ claimed: ClaimedHealthImport, phase: String, recordsRead: Int, fraction: Double, at date: Date,
        lease: Duration
    ) async throws -> Bool
    /// Stores a checkpoint on `database` (the transaction of the batch it follows); throws `claimLost` when the
    /// claim was lost, so that the batch is rolled back with it.
    func checkpoint(
        _ claimed: ClaimedHealthImport, _ checkpoint: AppleHealthImport.Checkpoint, at date: Date,
        on database: HaleDatabase
    ) async throws
    /// Ends a claimed import as completed or failed; false when the claim was lost.
    func finish(
        _ claimed: ClaimedHealthImport, as status: HealthImport.Status, checkpoint: AppleHealthImport.Checkpoint,
        error: (code: String, message: String)?, at date: Date
    ) async throws -> Bool
    /// Gives a claimed import back to the queue at once (this instance is stopping); false when the claim was lost.
    func release(_ claimed: ClaimedHealthImport, at date: Date) async throws -> Bool
    /// The ids of every import still queued or running, on any account: their files must be kept.
    func unfinishedIDs() async throws -> Set<UUID>
}

/// The claim on an import passed to another instance (this one's lease lapsed): what it was doing is undone.
struct HealthImportClaimLost: Error {}
