import Foundation
import SQLKit
import StrictJSON

/// `FitnessChallengeRepository` on SQL.
struct SQLFitnessChallengeRepository: FitnessChallengeRepository {
    let database: HaleDatabase

    func createdCount(by account: AccountID, endingOnOrAfter day: LocalDate) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
            .from("fitness_challenges").where("creator_account_id", .equal, account)
            .where("end_day", .greaterThanOrEqual, day.dayNumber)
            .first(decodingColumn: "count", as: Int.self) ?? 0
    }

    func create(_ challenge: FitnessChallenge, by creator: AccountID) async throws {
        try await database.writeTransaction { database in
            try await Self.lock(creator, on: database)
            try await database.sql.raw(
                """
                INSERT INTO fitness_challenges (id, creator_account_id, name, type, goal, start_day, end_day,
                    visibility, includes_user_entered, verified_sources, created_at)
                VALUES (\(bind: challenge.id), \(bind: creator), \(bind: challenge.name),
                    \(bind: challenge.type.rawValue), \(bind: challenge.goal), \(bind: challenge.window.first.dayNumber),
                    \(bind: challenge.window.last.dayNumber), \(bind: challenge.visibility.rawValue),
                    \(bind: challenge.includesUserEntered), \(bind: challenge.verification?.stored),
                    \(bind: challenge.createdAt))
                """
            ).run()
            try await Self.join(
                challenge.id, account: creator, at: challenge.createdAt, on: database)
        }
    }

    func exists(_ id: FitnessChallengeID) async throws -> Bool {
        try await database.sql.select().column(SQLLiteral.numeric("1")).from("fitness_challenges")
            .where("id", .equal, id).limit(1).first() != nil
    }

    func overview(of id: FitnessChallengeID, for account: AccountID) async throws -> FitnessChallengeOverview? {
        try await overviews(for: account, where: "c.id = \(bind: id)", limit: 1).first
    }

    func joined(by account: AccountID) async throws -> [FitnessChallengeOverview] {
        try await overviews(for: account, where: "me.account_id IS NOT NULL", limit: nil)
    }

    func publicChallenges(for account: AccountID, limit: Int) async throws -> [FitnessChallengeOverview] {
        let visibility = FitnessChallenge.Visibility.public.rawValue
        return try await overviews(for: account, where: "c.visibility = \(bind: visibility)", limit: limit)
    }

    func join(_ id: FitnessChallengeID, account: AccountID, at date: Date) async throws {
        try await database.writeTransaction { database in
            try await Self.lock(account, on: database)
            try await Self.join(id, account: account, at: date, on: database)
        }
    }

    func leave(_ id: FitnessChallengeID, account: AccountID, at date: Date) async throws {
        try await database.sql.update("fitness_challenge_members").set("left_at", to: date).set("updated_at", to: date)
            .set("progress", to: 0.0)
            .where("challenge_id", .equal, id).where("account_id", .equal, account).where(
                "left_at", .is, SQLLiteral.null
            )
            .run()
    }

    func standings(of challenge: FitnessChallenge, limit: Int) async throws -> [FitnessChallengeStanding] {
        let rows = try await database.sql.select().column("account_id").column("progress").column("verified")
            .from("fitness_challenge_members").where("challenge_id", .equal, challenge.id)
            .where("left_at", .is, SQLLiteral.null)
            .orderBy("progress", .descending).orderBy("joined_at").orderBy("account_id").limit(limit)
            .all(decoding: StandingRow.self, keyDecodingStrategy: .convertFromSnakeCase)
        return rows.enumerated().map { index, row in
            FitnessChallengeStanding(
                rank: index + 1, accountId: row.accountId, progress: row.progress,
                completed: row.progress >= challenge.goal, verified: row.verified)
        }
    }

    /// Sets the progress of `account`'s active memberships in the challenges `condition` selects (an SQL condition
    /// on `fitness_challenges`) to their expired progress plus the sum of its rollups of each challenge's type over
    /// the challenge's window: with user-entered samples or without, or only verified ones, as the challenge says
    /// (`progressAssignments`), with the membership's verified mark and excluded samples. Rollups hold each sample
    /// once, and a rollup moves into expired progress as it is deleted, so progress counts each sample once.
    ///
    /// Run it in the transaction that changed the rollups, after `lock(_:on:)`.
    static func updateProgress(
        of account: AccountID, inChallenges condition: SQLQueryString, at date: Date, on database: HaleDatabase
    ) async throws {
        try await database.sql.raw(
            """
            UPDATE fitness_challenge_members SET updated_at = \(bind: date),
                \(unsafeRaw: progressAssignments(on: database))
            WHERE account_id = \(bind: account) AND left_at IS NULL
                AND challenge_id IN (SELECT id FROM fitness_challenges WHERE \(condition))
            """
        ).run()
        try await markCompleted(where: "account_id = \(bind: account)", at: date, on: database)
    }

    /// Marks the memberships `condition` selects whose progress reached their challenge's goal for the first time,
    /// and writes a `challenge.completed` for each in the same transaction. A member completes a challenge once,
    /// whatever their progress does after.
    static func markCompleted(where condition: SQLQueryString, at date: Date, on database: HaleDatabase)
        async throws
    {
        let completed = try await database.sql.raw(
            """
            UPDATE fitness_challenge_members SET completed_at = \(bind: date)
            WHERE \(condition) AND left_at IS NULL AND completed_at IS NULL
                AND progress >= (SELECT c.goal FROM fitness_challenges c
                    WHERE c.id = fitness_challenge_members.challenge_id)
            RETURNING challenge_id, account_id, progress
            """
        ).all()
        for row in completed {
            let challenge = try row.decode(column: "challenge_id", as: UUID.self)
            let account = AccountID(try row.decode(column: "account_id", as: UUID.self))
            let data: [String: JSONValue] = ["challengeId": .string(challenge.uuidString.lowercased())]
            try await SQLWebhookOutbox.enqueue(
                WebhookEvent(.challengeCompleted, account: account, data: data, at: date), in: database)
        }
    }

    /// Adds a rollup that retention is deleting to the expired progress of its account's memberships, left ones
    /// included, in the challenges whose type and window hold it. Progress already counts it, so it stays.
    static func addExpired(_ rollup: ExpiredRollup, on database: HaleDatabase) async throws {
        try await database.sql.raw(
            """
            UPDATE fitness_challenge_members SET expired_progress = expired_progress + (
                SELECT CASE WHEN c.verified_sources IS NOT NULL THEN \(unsafeRaw: verifiedExpired(rollup, database))
                    WHEN c.includes_user_entered THEN \(bind: rollup.value)
                    ELSE \(bind: rollup.valueExcludingUserEntered) END
                FROM fitness_challenges c WHERE c.id = fitness_challenge_members.challenge_id)
            WHERE account_id = \(bind: rollup.accountId) AND challenge_id IN (
                SELECT id FROM fitness_challenges
                WHERE type = \(bind: rollup.type) AND start_day <= \(bind: rollup.day) AND end_day >= \(bind: rollup.day))
            """
        ).run()
    }

    /// Serialises the transactions that write the account's rollups or memberships, so that progress computed in one
    /// always sees what the other committed. SQLite's write transactions are serial already; on PostgreSQL this
    /// locks the account's row (without blocking the foreign-key checks of other inserts).
    static func lock(_ account: AccountID, on database: HaleDatabase) async throws {
        guard database.isPostgres else { return }
        try await database.sql.raw("SELECT id FROM accounts WHERE id = \(bind: account) FOR NO KEY UPDATE").run()
    }

    private static func join(_ id: FitnessChallengeID, account: AccountID, at date: Date, on database: HaleDatabase)
        async throws
    {
        try await database.sql.raw(
            """
            INSERT INTO fitness_challenge_members (challenge_id, account_id, joined_at, left_at, progress, updated_at)
            VALUES (\(bind: id), \(bind: account), \(bind: date), NULL, \(bind: 0.0), \(bind: date))
            ON CONFLICT (challenge_id, account_id) DO UPDATE SET joined_at = excluded.joined_at, left_at = NULL,
                updated_at = excluded.updated_at
            WHERE fitness_challenge_members.left_at IS NOT NULL
            """
        ).run()
        try await updateProgress(of: account, inChallenges: "id = \(bind: id)", at: date, on: database)
    }

    private func overviews(for account: AccountID, where condition: SQLQueryString, limit: Int?) async throws
        -> [FitnessChallengeOverview]
    {
        var query: SQLQueryString = """
            SELECT c.id, c.creator_account_id, c.name, c.type, c.goal, c.start_day, c.end_day, c.visibility,
                c.includes_user_entered, c.verified_sources, c.created_at,
                (SELECT COUNT(*) FROM fitness_challenge_members n WHERE n.challenge_id = c.id AND n.left_at IS NULL)
                    AS member_count,
                me.progress AS my_progress
            FROM fitness_challenges c
            LEFT JOIN fitness_challenge_members me ON me.challenge_id = c.id AND me.account_id = \(bind: account)
                AND me.left_at IS NULL
            WHERE \(condition)
            ORDER BY c.created_at DESC, c.id
            """
        if let limit { query.appendInterpolation(" LIMIT \(bind: limit)" as SQLQueryString) }
        return try await database.sql.raw(query)
            .all(decoding: OverviewRow.self, keyDecodingStrategy: .convertFromSnakeCase)
            .compactMap(\.overview)
    }

    /// What an expiring rollup adds to a verified challenge's expired progress: the most an allowed kind of
    /// device recorded, nothing when the rollup is flagged implausible. Constant text of the rollup's numbers.
    private static func verifiedExpired(_ rollup: ExpiredRollup, _ database: HaleDatabase) -> String {
        guard rollup.implausibleRate == nil, rollup.implausibleStride == nil else { return "0" }
        let values = zip(
            DeviceClass.allCases, [rollup.valueVerifiedWatch, rollup.valueVerifiedPhone, rollup.valueVerifiedOther]
        )
        .map { kind, value in
            "CASE WHEN c.verified_sources LIKE '%\(kind.rawValue)%' THEN \(value.isFinite ? value : 0) ELSE 0 END"
        }
        return "\(database.isPostgres ? "GREATEST" : "MAX")(\(values.joined(separator: ", ")))"
    }

    private struct StandingRow: Decodable {
        let accountId: AccountID
        let progress: Double
        let verified: Bool
    }

    private struct OverviewRow: Decodable {
        let id: FitnessChallengeID
        let creatorAccountId: AccountID?
        let name: String
        let type: String
        let goal: Double
        let startDay: Int
        let endDay: Int
        let visibility: String
        let includesUserEntered: Bool
        let verifiedSources: String?
        let createdAt: Date
        let memberCount: Int
        let myProgress: Double?

        var overview: FitnessChallengeOverview? {
            guard let type = HealthSampleType(rawValue: type),
                let window = ChallengeWindow(first: LocalDate(dayNumber: startDay), last: LocalDate(dayNumber: endDay)),
                let visibility = FitnessChallenge.Visibility(rawValue: visibility)
            else {
                return nil
            }
            let challenge = FitnessChallenge(
                id: id, creatorAccountId: creatorAccountId, name: name, type: type, goal: goal, window: window,
                visibility: visibility, includesUserEntered: includesUserEntered,
                verification: FitnessChallenge.Verification(stored: verifiedSources), createdAt: createdAt)
            return FitnessChallengeOverview(challenge: challenge, memberCount: memberCount, progress: myProgress)
        }
    }
}
