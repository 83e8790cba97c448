import Foundation

/// The floor `hale bench ingest` measures the sample sync's write path against: the rows a sync would store, loaded
/// with a bare `COPY` into the same table and nothing else (no lookup of stored samples, no rollups, no challenge
/// progress, no log). PostgreSQL only.
public struct HealthSampleCopyBaseline: Sendable {
    let database: HaleDatabase
    let plausibility: HealthPlausibility

    /// The baseline on the services' database, with the sync's own checks.
    public init(services: HaleServices) {
        database = services.database
        plausibility = services.healthSync.plausibility
    }

    /// The rows the sync would store for `batch`'s samples in `account`; samples it would refuse are left out.
    public func rows(of batch: HealthSyncBatch, account: AccountID, zone: TimeZone, at now: Date) throws
        -> [StoredHealthSample]
    {
        HealthSync.prepare(
            batch.samples[...], provider: batch.provider, account: account, zone: zone, plausibility: plausibility,
            now: now
        ).prepared.map(\.stored)
    }

    /// The rows `account` has stored, as `other`'s (with ids of their own): what an import stored, to load again
    /// with `COPY` beside it.
    public func storedRows(of account: AccountID, as other: AccountID) async throws -> [StoredHealthSample] {
        try await database.sql.select().column("*").from("health_samples").where("account_id", .equal, account)
            .allSamples().map { row in
                var copy = row
                copy.id = UUID()
                copy.accountId = other
                return copy
            }
    }

    /// Rows written in `COPY`'s text format, ready to load.
    public struct Encoded: Sendable {
        let text: PostgresCopyText
    }

    /// `rows` in `COPY`'s text format: done before the baseline is timed, as a file for `psql`'s `\copy` is.
    public func encode(_ rows: [StoredHealthSample]) -> Encoded {
        var text = PostgresCopyText(capacity: rows.count * 320)
        for row in rows { row.write(to: &text) }
        return Encoded(text: text)
    }

    /// Loads encoded rows with one `COPY`.
    public func copy(_ rows: Encoded) async throws {
        try await database.copy(into: "health_samples", columns: StoredHealthSample.columns, rows: rows.text.buffer)
    }

    /// Deletes the account's samples, as they were before `copy`.
    public func removeSamples(of account: AccountID) async throws {
        try await database.sql.delete(from: "health_samples").where("account_id", .equal, account).run()
    }
}
