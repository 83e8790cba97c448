import Foundation

/// Seed 004's `get_challenges_for_health_sync()`: the challenges the signed-in person is in that still take
/// progress, in the columns its `findMatchingChallenge` reads (`challenge_type`, `start_date`, `end_date`), so the
/// app attributes each activity to its challenge. Hale counts progress from the synced samples itself.
struct SupabaseChallenges {
    let challenges: FitnessChallenges
    let clock: HaleClock

    /// The rows, soonest-ending first: challenges whose window has not ended in `zone` today.
    func forHealthSync(of account: AccountID, in zone: TimeZone) async throws -> [PostgRESTRow] {
        let today = LocalDate(at: clock.now(), in: zone)
        return try await challenges.list(scope: .joined, for: account)
            .filter { $0.challenge.window.last >= today }
            .sorted {
                ($0.challenge.window.last, $0.challenge.id.description) < (
                    $1.challenge.window.last, $1.challenge.id.description
                )
            }
            .map(Self.row)
    }

    private static func row(_ overview: FitnessChallengeOverview) -> PostgRESTRow {
        let challenge = overview.challenge
        let id = PostgRESTValue.text(challenge.id.description)
        return [
            ("id", id), ("challenge_id", id), ("title", .text(challenge.name)),
            ("challenge_type", .text(challenge.type.rawValue)), ("goal_value", .number(challenge.goal)),
            ("start_date", .text(challenge.window.first.description)),
            ("end_date", .text(challenge.window.last.description)),
            ("current_progress", overview.progress.map(PostgRESTValue.number) ?? .null),
            ("includes_user_entered", .boolean(challenge.includesUserEntered)),
        ]
    }
}
