import Foundation
import SQLKit

/// How members' progress, verified mark and excluded samples are computed from their rollups, in SQL: every
/// challenge's in one statement, verified or not (`FitnessChallenge.Verification`).
extension SQLFitnessChallengeRepository {
    /// The assignments of `fitness_challenge_members`' progress, `excluded_samples` and `verified` from the member's
    /// rollups of the challenge's type over its window. Constant text: it binds nothing.
    static func progressAssignments(on database: HaleDatabase) -> String {
        let greatest = database.isPostgres ? "GREATEST" : "MAX"
        let rollups = """
            FROM fitness_challenges c JOIN health_rollups r ON r.account_id = fitness_challenge_members.account_id
                AND r.type = c.type AND r.day >= c.start_day AND r.day <= c.end_day
            WHERE c.id = fitness_challenge_members.challenge_id
            """
        let verifiedValues = DeviceClass.allCases.map { kind in
            "CASE WHEN \(allows(kind)) THEN r.value_verified_\(kind.rawValue) ELSE 0 END"
        }
        let leftOutVerified = DeviceClass.allCases.map { kind in
            "CASE WHEN \(allows(kind)) AND NOT \(flagged) THEN 0 ELSE r.samples_verified_\(kind.rawValue) END"
        }
        return """
            progress = expired_progress + (SELECT COALESCE(SUM(CASE
                    WHEN c.verified_sources IS NULL THEN
                        CASE WHEN c.includes_user_entered THEN r.value ELSE r.value_excluding_user_entered END
                    WHEN \(flagged) THEN 0
                    ELSE \(greatest)(\(verifiedValues.joined(separator: ", "))) END), 0)
                \(rollups)),
            excluded_samples = (SELECT COALESCE(SUM(CASE
                    WHEN c.verified_sources IS NULL THEN
                        CASE WHEN c.includes_user_entered THEN 0 ELSE r.samples_user_entered END
                    ELSE r.samples_user_entered + r.samples_unattested + \(leftOutVerified.joined(separator: " + "))
                    END), 0)
                \(rollups)),
            verified = NOT EXISTS (SELECT 1 \(rollups) AND (\(flagged) OR (c.verified_sources IS NULL
                AND (r.samples_unattested > 0 OR (c.includes_user_entered AND r.samples_user_entered > 0)))))
            """
    }

    /// Whether the rollup `r`'s day is implausible: its steps rollup is flagged.
    static let flagged = """
        EXISTS (SELECT 1 FROM health_rollups f WHERE f.account_id = r.account_id AND f.day = r.day
            AND f.type = 'steps' AND (f.implausible_rate IS NOT NULL OR f.implausible_stride IS NOT NULL))
        """

    /// Whether challenge `c` counts verified samples from `kind`.
    private static func allows(_ kind: DeviceClass) -> String {
        "c.verified_sources LIKE '%\(kind.rawValue)%'"
    }

    /// Flags the account's steps rollups over `first … last` whose verified steps a device took with less than 25 cm
    /// of verified distance a step, that device's own: at least 5,000 steps, and some distance recorded.
    static func markImplausibleStrides(
        of account: AccountID, from first: LocalDate, through last: LocalDate, on database: HaleDatabase
    ) async throws {
        let strides = DeviceClass.allCases.map { kind in
            let column = "value_verified_\(kind.rawValue)"
            return
                "(health_rollups.\(column) >= 5000 AND d.\(column) > 0 AND d.\(column) < 0.25 * health_rollups.\(column))"
        }
        let reason = "less than 25 cm of distance a step"
        try await database.sql.raw(
            """
            UPDATE health_rollups SET implausible_stride = CASE WHEN EXISTS (SELECT 1 FROM health_rollups d
                WHERE d.account_id = health_rollups.account_id AND d.day = health_rollups.day AND d.type = 'distance'
                AND (\(unsafeRaw: strides.joined(separator: " OR ")))) THEN \(bind: reason) ELSE NULL END
            WHERE account_id = \(bind: account) AND type = 'steps' AND day >= \(bind: first.dayNumber)
                AND day <= \(bind: last.dayNumber)
            """
        ).run()
    }

    /// What a verified challenge left out of the account's progress, and why.
    func exclusions(of account: AccountID, in challenge: FitnessChallenge) async throws -> FitnessChallengeExclusions? {
        guard let verification = challenge.verification else { return nil }
        let rows = try await database.sql.raw(
            """
            SELECT r.day, r.samples_user_entered, r.samples_unattested, r.samples_verified_watch,
                r.samples_verified_phone, r.samples_verified_other, f.implausible_rate, f.implausible_stride
            FROM health_rollups r LEFT JOIN health_rollups f ON f.account_id = r.account_id AND f.day = r.day
                AND f.type = 'steps'
            WHERE r.account_id = \(bind: account) AND r.type = \(bind: challenge.type.rawValue)
                AND r.day >= \(bind: challenge.window.first.dayNumber) AND r.day <= \(bind: challenge.window.last.dayNumber)
            ORDER BY r.day
            """
        ).all()
        var exclusions = FitnessChallengeExclusions()
        for row in rows {
            exclusions.userEntered += try row.decode(column: "samples_user_entered", as: Int.self)
            exclusions.unattested += try row.decode(column: "samples_unattested", as: Int.self)
            let reason =
                try row.decode(column: "implausible_rate", as: String?.self)
                ?? row.decode(column: "implausible_stride", as: String?.self)
            for kind in DeviceClass.allCases {
                let count = try row.decode(column: "samples_verified_\(kind.rawValue)", as: Int.self)
                if !verification.sources.contains(kind) {
                    exclusions.sourceNotAllowed += count
                } else if reason != nil {
                    exclusions.implausible += count
                }
            }
            if let reason {
                exclusions.implausibleDays.append(
                    .init(day: LocalDate(dayNumber: try row.decode(column: "day", as: Int.self)), reason: reason))
            }
        }
        return exclusions
    }

    /// Recomputes every active member's progress in the challenge from their rollups, locking the members'
    /// accounts in order first, as a sync that changes their rollups would.
    func recomputeProgress(of challenge: FitnessChallengeID, at date: Date) async throws {
        try await database.writeTransaction { database in
            if database.isPostgres {
                try await database.sql.raw(
                    """
                    SELECT id FROM accounts WHERE id IN (SELECT account_id FROM fitness_challenge_members
                        WHERE challenge_id = \(bind: challenge) AND left_at IS NULL)
                    ORDER BY id FOR NO KEY UPDATE
                    """
                ).run()
            }
            try await database.sql.raw(
                """
                UPDATE fitness_challenge_members SET updated_at = \(bind: date),
                    \(unsafeRaw: Self.progressAssignments(on: database))
                WHERE challenge_id = \(bind: challenge) AND left_at IS NULL
                """
            ).run()
            try await Self.markCompleted(where: "challenge_id = \(bind: challenge)", at: date, on: database)
        }
    }
}
