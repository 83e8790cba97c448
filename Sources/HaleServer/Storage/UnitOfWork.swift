/// Where a service's work is written: one open database transaction, or the database itself outside one. A service
/// hands it from one repository to another, so that what they write commits together or not at all, and never
/// looks inside: only the storage layer reads its connection.
public struct UnitOfWork: Sendable {
    /// The database the work is written to: a transaction's pinned connection, or the database outside one.
    let database: HaleDatabase
}
