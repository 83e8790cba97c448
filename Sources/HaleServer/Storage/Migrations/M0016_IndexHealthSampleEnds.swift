import Fluent
import SQLKit

/// Retention deletes samples by when they ended, across accounts; without this index each pass reads every sample.
struct M0016_IndexHealthSampleEnds: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "health_samples_end_at").on("health_samples").column("end_at").run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "health_samples_end_at").run()
    }
}
