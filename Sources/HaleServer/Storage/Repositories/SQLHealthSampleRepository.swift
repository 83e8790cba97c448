import Foundation
import PostgresNIO
import SQLKit
import Synchronization

/// `HealthSampleRepository` on SQL.
struct SQLHealthSampleRepository: HealthSampleRepository {
    let database: HaleDatabase
    var unitOfWork: UnitOfWork { UnitOfWork(database: database) }

    /// Rows per multi-row statement: 18 columns × 50 rows stays under SQLite's oldest limit of 999 variables.
    private static let chunk = 50

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any HealthSampleRepository) async throws -> T)
        async throws -> T
    {
        try await database.writeTransaction { try await body(SQLHealthSampleRepository(database: $0)) }
    }

    func samples(of account: AccountID, provider: String, platformIds: [String]) async throws
        -> [String: StoredHealthSample]
    {
        var found: [String: StoredHealthSample] = [:]
        if database.isPostgres {
            // One statement whatever the batch's size: the ids as one array parameter.
            let ids = Array(Set(platformIds))
            let rows = try await database.postgresRows(
                """
                SELECT \(unescaped: StoredHealthSample.columnList) FROM health_samples
                WHERE account_id = \(account.rawValue) AND provider = \(provider) AND platform_id = ANY(\(ids))
                """)
            for row in rows {
                let sample = try StoredHealthSample(postgresRow: row)
                found[sample.platformId] = sample
            }
            return found
        }
        for ids in Self.chunks(of: Array(Set(platformIds)), size: 500) {
            let rows = try await database.sql.select().column("*").from("health_samples")
                .where("account_id", .equal, account).where("provider", .equal, provider)
                .where("platform_id", .in, ids)
                .allSamples()
            for row in rows { found[row.platformId] = row }
        }
        return found
    }

    func insert(_ samples: [StoredHealthSample]) async throws {
        if database.isPostgres {
            guard !samples.isEmpty else { return }
            return try await database.copy(into: "health_samples", columns: StoredHealthSample.columns) { write in
                for chunk in Self.chunks(of: samples, size: 1_000) {
                    var rows = PostgresCopyText(capacity: chunk.count * 320)
                    for sample in chunk { sample.write(to: &rows) }
                    try await write(rows.buffer)
                }
            }
        }
        for rows in Self.chunks(of: samples, size: Self.chunk) {
            try await Self.insert(rows, on: database.sql).run()
        }
    }

    func update(_ samples: [StoredHealthSample]) async throws {
        // Many rows per statement: an upsert on the row's id that only ever finds the row, and changes it only
        // when it is the same account's.
        for rows in Self.chunks(of: samples, size: Self.chunk) {
            try await Self.insert(rows, on: database.sql)
                .onConflict(with: ["id"]) { update in
                    for column in StoredHealthSample.updatedColumns { update.set(excludedValueOf: column) }
                    return update.where(
                        SQLColumn("account_id", table: "health_samples"), .equal, SQLExcludedColumn("account_id"))
                }
                .run()
        }
    }

    func delete(of account: AccountID, provider: String, platformIds: [String]) async throws -> [StoredHealthSample] {
        var deleted: [StoredHealthSample] = []
        for ids in Self.chunks(of: Array(Set(platformIds)), size: 500) {
            deleted += try await database.sql.delete(from: "health_samples").where("account_id", .equal, account)
                .where("provider", .equal, provider).where("platform_id", .in, ids)
                .returning("*").allSamples()
        }
        return deleted
    }

    func delete(of account: AccountID, providers: [String], types: [String]) async throws -> [StoredHealthSample] {
        try await database.sql.delete(from: "health_samples").where("account_id", .equal, account)
            .where("provider", .in, providers).where("type", .in, types)
            .returning("*").allSamples()
    }

    func samples(of account: AccountID, type: String, overlapping start: Date, _ end: Date, limit: Int?) async throws
        -> [StoredHealthSample]
    {
        try await database.sql.select().column("*").from("health_samples").where("account_id", .equal, account)
            .where("type", .equal, type).where("start_at", .lessThan, end).where("end_at", .greaterThanOrEqual, start)
            .limit(limit).allSamples()
    }

    var readsApartFromOwnWrites: Bool { database.isPostgres }

    func rollupInputs(
        of account: AccountID, type: String, overlapping start: Date, _ end: Date, limit: Int?,
        excludingOwnWrites: Bool, ranking: SourcePriority
    ) async throws -> [HealthSample] {
        guard let known = HealthSampleType(rawValue: type) else { return [] }
        // Up to `health.maxSamplesReadPerSync` rows: each becomes a sample as it arrives, and no row is held after.
        let samples = RollupInputs(type: known, ranking: ranking)
        if database.isPostgres {
            // A row's xmin is the transaction that wrote its version: this one's for every row it inserted or
            // updated (the sync takes no savepoints, so there is no subtransaction id to miss).
            let ownWrites = excludingOwnWrites ? " AND xmin <> pg_current_xact_id()::xid" : ""
            try await database.postgresRows(
                """
                SELECT value, start_at, end_at, utc_offset_seconds, source_bundle, device_model, device_type,
                user_entered, proof_id IS NOT NULL FROM health_samples WHERE account_id = \(account.rawValue) AND type = \(type)
                AND start_at < \(end) AND end_at >= \(start)\(unescaped: ownWrites) LIMIT \(limit ?? Int.max)
                """
            ) { row in
                let (value, start, end, offset, bundle, model, deviceType, userEntered, attested) = try row.decode(
                    (Double, Date, Date, Int, String?, String?, String?, Bool, Bool).self)
                samples.add(
                    value: value, start: start, end: end, offset: offset,
                    source: SampleSource(
                        bundleID: bundle, deviceModel: model, deviceType: deviceType, isUserEntered: userEntered,
                        isAttested: attested))
            }
            return samples.taken
        }
        // Each row handed on as it comes: `all()` would hold every row's column values, not much smaller than the
        // samples themselves, until the last (half of an import's memory, `hale bench import-memory`).
        let failure = Mutex<(any Error)?>(nil)
        try await database.sql.select()
            .columns(
                "value", "start_at", "end_at", "utc_offset_seconds", "source_bundle", "device_model", "device_type",
                "user_entered"
            )
            .column(SQLRaw("proof_id IS NOT NULL"), as: "attested")
            .from("health_samples").where("account_id", .equal, account).where("type", .equal, type)
            .where("start_at", .lessThan, end).where("end_at", .greaterThanOrEqual, start).limit(limit)
            .run { row in
                do {
                    samples.add(
                        value: try row.decode(column: "value", as: Double.self),
                        start: try row.decode(column: "start_at", as: Date.self),
                        end: try row.decode(column: "end_at", as: Date.self),
                        offset: try row.decode(column: "utc_offset_seconds", as: Int.self),
                        source: SampleSource(
                            bundleID: try row.decode(column: "source_bundle", as: String?.self),
                            deviceModel: try row.decode(column: "device_model", as: String?.self),
                            deviceType: try row.decode(column: "device_type", as: String?.self),
                            isUserEntered: try row.decode(column: "user_entered", as: Bool.self),
                            isAttested: try row.decode(column: "attested", as: Bool.self)))
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                }
            }
        if let error = failure.withLock({ $0 }) { throw error }
        return samples.taken
    }

    func syncedSamples(
        of account: AccountID, type: String, overlapping start: Date, _ end: Date, importedPrefix: String, limit: Int
    ) async throws -> [StoredHealthSample] {
        try await database.sql.select().column("*").from("health_samples").where("account_id", .equal, account)
            .where("type", .equal, type).where("start_at", .lessThan, end).where("end_at", .greaterThanOrEqual, start)
            .where("platform_id", .notLike, importedPrefix + "%").limit(limit).allSamples()
    }

    func setRollups(
        of account: AccountID, type: String, _ values: [(day: LocalDate, value: HealthRollupValue?)], at date: Date
    ) async throws {
        let removed = values.filter { $0.value == nil }.map(\.day.dayNumber)
        for days in Self.chunks(of: removed, size: 500) {
            try await database.sql.delete(from: "health_rollups").where("account_id", .equal, account)
                .where("type", .equal, type).where("day", .in, days).run()
        }
        let set = values.compactMap { entry in entry.value.map { (entry.day, $0) } }
        // Fifteen columns × 60 rows stays under SQLite's oldest limit of 999 variables.
        for rows in Self.chunks(of: set, size: 60) {
            let insert = database.sql.insert(into: "health_rollups").columns(Self.rollupColumns)
            for (day, value) in rows {
                insert.values(
                    [SQLBind(account), SQLBind(day.dayNumber), SQLBind(type)] + Self.bindings(of: value)
                        + [SQLBind(date)])
            }
            try await insert.onConflict(with: ["account_id", "day", "type"]) { update in
                for column in Self.rollupColumns.dropFirst(3) { update.set(excludedValueOf: column) }
                return update
            }.run()
        }
    }

    /// The columns `setRollups` writes: the key, then `bindings(of:)`'s, then the time.
    private static let rollupColumns =
        ["account_id", "day", "type", "value", "value_excluding_user_entered"]
        + M0044_VerifyChallengeProgress.verifiedValues
        + M0044_VerifyChallengeProgress.sampleCounts + ["implausible_rate", "updated_at"]

    /// A rollup's values, in `rollupColumns`' order.
    private static func bindings(of value: HealthRollupValue) -> [any SQLExpression] {
        let classes: [DeviceClass] = [.watch, .phone, .other]
        return [SQLBind(value.all), SQLBind(value.excludingUserEntered)]
            + classes.map { SQLBind(value.verified[$0] ?? 0) }
            + [SQLBind(Int64(value.userEnteredSamples)), SQLBind(Int64(value.unattestedSamples))]
            + classes.map { SQLBind(Int64(value.verifiedSamples[$0] ?? 0)) } + [SQLBind(value.implausibleRate)]
    }

    func rollups(of account: AccountID, type: String, from start: LocalDate, through end: LocalDate) async throws
        -> [LocalDate: (all: Double, excludingUserEntered: Double)]
    {
        let rows = try await database.sql.select().column("day").column("value").column("value_excluding_user_entered")
            .from("health_rollups").where("account_id", .equal, account).where("type", .equal, type)
            .where("day", .greaterThanOrEqual, start.dayNumber).where("day", .lessThanOrEqual, end.dayNumber).all()
        var rollups: [LocalDate: (all: Double, excludingUserEntered: Double)] = [:]
        for row in rows {
            let day = LocalDate(dayNumber: try row.decode(column: "day", as: Int.self))
            rollups[day] = (
                try row.decode(column: "value", as: Double.self),
                try row.decode(column: "value_excluding_user_entered", as: Double.self)
            )
        }
        return rollups
    }

    func markImplausibleStrides(of account: AccountID, from first: LocalDate, through last: LocalDate) async throws {
        try await SQLFitnessChallengeRepository.markImplausibleStrides(
            of: account, from: first, through: last, on: database)
    }

    func updateFitnessChallengeProgress(
        of account: AccountID, type: String, from first: LocalDate, through last: LocalDate, at date: Date
    ) async throws {
        try await SQLFitnessChallengeRepository.lock(account, on: database)
        try await SQLFitnessChallengeRepository.updateProgress(
            of: account,
            inChallenges: """
                type = \(bind: type) AND start_day <= \(bind: last.dayNumber) AND end_day >= \(bind: first.dayNumber)
                """,
            at: date, on: database)
    }

    func insert(_ log: HealthSyncLog) async throws -> Bool {
        do {
            try await database.sql.insert(into: "health_sync_logs").model(log, keyEncodingStrategy: .convertToSnakeCase)
                .run()
            return true
        } catch  where HaleDatabase.isConstraintViolation(error) {
            return false
        }
    }

    func log(of account: AccountID, batch: String) async throws -> HealthSyncLog? {
        try await database.sql.select().column("*").from("health_sync_logs").where("account_id", .equal, account)
            .where("batch_id", .equal, batch)
            .first(decoding: HealthSyncLog.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func logs(of account: AccountID, limit: Int, status: HealthSyncLog.Status?) async throws -> [HealthSyncLog] {
        let query = database.sql.select().column("*").from("health_sync_logs").where("account_id", .equal, account)
        if let status { query.where("status", .equal, status.rawValue) }
        return try await query.orderBy("started_at", .descending).limit(limit)
            .all(decoding: HealthSyncLog.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func report(_ event: WebhookEvent) async throws {
        try await SQLWebhookOutbox.enqueue(event, in: database)
    }

    func markSynced(_ account: AccountID, provider: String, at date: Date) async throws {
        try await database.sql.update("health_connections").set("last_sync_at", to: date)
            .where("account_id", .equal, account).where("provider", .equal, provider).where("is_active", .equal, true)
            .run()
    }

    func deleteSamples(endedBefore date: Date, limit: Int) async throws -> Int {
        try await database.sql.raw(
            """
            DELETE FROM health_samples WHERE id IN (
                SELECT id FROM health_samples WHERE end_at < \(bind: date) LIMIT \(bind: limit)\(unsafeRaw: database.skipLocked))
            RETURNING id
            """
        ).all().count
    }

    func expireRollups(before day: LocalDate, limit: Int) async throws -> Int {
        let expired = try await database.sql.raw(
            """
            DELETE FROM health_rollups WHERE (account_id, day, type) IN (
                SELECT account_id, day, type FROM health_rollups WHERE day < \(bind: day.dayNumber)
                LIMIT \(bind: limit)\(unsafeRaw: database.skipLocked))
            RETURNING account_id, day, type, value, value_excluding_user_entered, value_verified_watch,
                value_verified_phone, value_verified_other, implausible_rate, implausible_stride
            """
        ).all(decoding: ExpiredRollup.self, keyDecodingStrategy: .convertFromSnakeCase)
        for (account, rollups) in expired.groupedInLockOrder(by: \.accountId) {
            try await SQLFitnessChallengeRepository.lock(account, on: database)
            for rollup in rollups { try await SQLFitnessChallengeRepository.addExpired(rollup, on: database) }
        }
        return expired.count
    }

    func deleteLogs(startedBefore date: Date) async throws {
        try await database.sql.delete(from: "health_sync_logs").where("started_at", .lessThan, date).run()
    }

    func forgetExpiredProgress(of account: AccountID, types: [String]) async throws {
        try await SQLFitnessChallengeRepository.lock(account, on: database)
        try await database.sql.raw(
            """
            UPDATE fitness_challenge_members SET expired_progress = 0,
                progress = CASE WHEN left_at IS NULL THEN progress - expired_progress ELSE progress END
            WHERE account_id = \(bind: account) AND expired_progress <> 0
                AND challenge_id IN (SELECT id FROM fitness_challenges WHERE type IN (\(binds: types)))
            """
        ).run()
    }

    func deleteUnconsentedSamples(limit: Int) async throws -> [StoredHealthSample] {
        try await database.sql.raw(
            """
            DELETE FROM health_samples WHERE id IN (
                SELECT s.id FROM health_samples s WHERE NOT EXISTS (
                    SELECT 1 FROM health_consents c
                    WHERE c.account_id = s.account_id AND c.permission = s.type AND c.revoked_at IS NULL
                        AND c.platform = \(unsafeRaw: Self.platformOfProvider))
                LIMIT \(bind: limit)\(unsafeRaw: database.skipLocked))
            RETURNING *
            """
        ).allSamples()
    }

    func samples(of account: AccountID, after cursor: (start: Date, id: UUID)?, limit: Int) async throws
        -> [StoredHealthSample]
    {
        var query = database.sql.select().column("*").from("health_samples").where("account_id", .equal, account)
        if let cursor {
            query = query.where {
                $0.where("start_at", .greaterThan, cursor.start).orWhere {
                    $0.where("start_at", .equal, cursor.start).where("id", .greaterThan, cursor.id)
                }
            }
        }
        return try await query.orderBy("start_at").orderBy("id").limit(limit)
            .allSamples()
    }

    func allRollups(of account: AccountID) async throws
        -> [(day: LocalDate, type: String, all: Double, excludingUserEntered: Double)]
    {
        try await database.sql.select().column("day").column("type").column("value")
            .column("value_excluding_user_entered").from("health_rollups").where("account_id", .equal, account)
            .orderBy("day").orderBy("type").all().map { row in
                (
                    LocalDate(dayNumber: try row.decode(column: "day", as: Int.self)),
                    try row.decode(column: "type", as: String.self), try row.decode(column: "value", as: Double.self),
                    try row.decode(column: "value_excluding_user_entered", as: Double.self)
                )
            }
    }

    func deleteAllSamples(of account: AccountID) async throws -> [StoredHealthSample] {
        try await database.sql.delete(from: "health_samples").where("account_id", .equal, account).returning("*")
            .allSamples()
    }

    func deleteAllProofs(of account: AccountID) async throws {
        try await database.sql.delete(from: "health_write_proofs").where("account_id", .equal, account).run()
    }

    func deleteProofs(createdBefore date: Date, limit: Int) async throws -> Int {
        try await database.sql.raw(
            """
            DELETE FROM health_write_proofs WHERE id IN (
                SELECT id FROM health_write_proofs WHERE created_at < \(bind: date) LIMIT \(bind: limit)\(unsafeRaw: database.skipLocked))
            RETURNING id
            """
        ).all().count
    }

    func insert(_ proof: HealthWriteProof) async throws {
        try await database.sql.insert(into: "health_write_proofs")
            .model(proof, keyEncodingStrategy: .convertToSnakeCase)
            .ignoringConflicts(with: ["id"]).run()
    }

    func deleteAllLogs(of account: AccountID) async throws -> Int {
        try await database.sql.delete(from: "health_sync_logs").where("account_id", .equal, account)
            .returning("id").all().count
    }

    func syncedTotals(of account: AccountID, from start: LocalDate, through end: LocalDate) async throws
        -> [LocalDate: (totals: HealthTotals, updatedAt: Date)]
    {
        let types = ["steps", "active_minutes", "calories", "distance"]
        let rows = try await database.sql.select().column("day").column("type").column("value").column("updated_at")
            .from("health_rollups").where("account_id", .equal, account).where("type", .in, types)
            .where("day", .greaterThanOrEqual, start.dayNumber).where("day", .lessThanOrEqual, end.dayNumber).all()
        var days: [LocalDate: (measures: [String: Double], updatedAt: Date)] = [:]
        for row in rows {
            let day = LocalDate(dayNumber: try row.decode(column: "day", as: Int.self))
            let updatedAt = try row.decode(column: "updated_at", as: Date.self)
            var entry = days[day] ?? ([:], updatedAt)
            entry.measures[try row.decode(column: "type", as: String.self)] = try row.decode(
                column: "value", as: Double.self)
            entry.updatedAt = max(entry.updatedAt, updatedAt)
            days[day] = entry
        }
        return days.mapValues { (Self.totals(of: $0.measures), $0.updatedAt) }
    }

    /// A day's rollups by type as seed 001's four measures.
    private static func totals(of measures: [String: Double]) -> HealthTotals {
        HealthTotals(
            steps: HealthTotals.whole(measures["steps"] ?? 0),
            duration: HealthTotals.whole(measures["active_minutes"] ?? 0),
            caloriesHundredths: HealthTotals.hundredths(measures["calories"] ?? 0),
            distanceHundredths: HealthTotals.hundredths(measures["distance"] ?? 0))
    }

    /// `HealthProvider.platform` in SQL, made from it so the two cannot disagree. Every value is an enum's raw
    /// value, so nothing from outside is interpolated.
    private static let platformOfProvider =
        "CASE s.provider "
        + HealthProvider.allCases.map { "WHEN '\($0.rawValue)' THEN '\($0.platform.rawValue)'" }.joined(separator: " ")
        + " END"

    /// A multi-row insert of every column.
    private static func insert(_ samples: [StoredHealthSample], on sql: any SQLDatabase) -> SQLInsertBuilder {
        let insert = sql.insert(into: "health_samples").columns(StoredHealthSample.columns)
        for sample in samples { insert.values(sample.bindings) }
        return insert
    }

    private static func chunks<T>(of items: [T], size: Int) -> [[T]] {
        stride(from: 0, to: items.count, by: size).map { Array(items[$0..<min($0 + size, items.count)]) }
    }
}
