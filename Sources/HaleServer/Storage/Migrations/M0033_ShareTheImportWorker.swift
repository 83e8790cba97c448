import Fluent
import SQLKit

/// What lets one import worker take turns between accounts, and uploads claim their place before they write:
/// - `resume_offset`: the boundary of the file `records_committed` ends at, so a paused import reads on from there;
/// - `checked_offset`, `checked_records`, `check_complete`: how far the whole-file check has read;
/// - `queued_at`: when the import last joined the queue (uploaded, or paused to let another account's go first),
///   the order imports are claimed in;
/// - status `uploading`: a row made before the upload's first byte is written, so an account's second upload is
///   refused before it writes anything.
///
/// One column per statement: SQLite adds one column per `ALTER TABLE`.
struct M0033_ShareTheImportWorker: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let zero = DatabaseSchema.FieldConstraint.sql(.default(0))
        try await database.schema("health_imports").field("resume_offset", .int64, .required, zero).update()
        try await database.schema("health_imports").field("checked_offset", .int64, .required, zero).update()
        try await database.schema("health_imports").field("checked_records", .int64, .required, zero).update()
        try await database.schema("health_imports")
            .field("check_complete", .bool, .required, .sql(.default(false))).update()
        try await database.schema("health_imports").field("queued_at", .datetime).update()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.update("health_imports").set("queued_at", to: SQLColumn("created_at")).run()
        try await sql.create(index: "health_imports_queue").on("health_imports").column("status").column("queued_at")
            .run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "health_imports_queue").run()
        for column in ["queued_at", "check_complete", "checked_records", "checked_offset", "resume_offset"] {
            try await database.schema("health_imports").deleteField(FieldKey(stringLiteral: column)).update()
        }
    }
}
