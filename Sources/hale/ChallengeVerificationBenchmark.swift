import Foundation
import HaleServer

/// A verified fitness challenge at scale: members who each synced, attested, a month of steps at hundreds of samples
/// a day, some of them with a day no person could walk; then every member's progress recomputed from the verified
/// daily totals, beside the same challenge unverified, in the same run.
struct ChallengeVerificationBenchmark {
    let members: Int
    let days: Int
    let samplesPerDay: Int
    let rounds: Int

    /// What a run measured.
    struct Result: Codable {
        let members: Int
        let days: Int
        let samplesPerDay: Int
        let samples: Int
        let seedSeconds: Double
        let verifiedRecomputeP50Seconds: Double
        let unverifiedRecomputeP50Seconds: Double
        let verifiedMembers: Int
        let flaggedMembers: Int
    }

    /// Every 50th member's phone made one day's steps at a cadence nobody keeps.
    static let shakerEvery = 50

    func run(_ services: HaleServices, progress: (String) -> Void) async throws -> Result {
        let clock = ContinuousClock()
        let last = LocalDate(at: Date(), in: .gmt).adding(days: -1)
        let first = last.adding(days: -(days - 1))
        let seeding = clock.now
        var accounts: [AccountID] = []
        for index in 0..<members {
            let account = try await services.accounts.create(
                email: try AccountEmail("bench-challenge-\(UUID().uuidString.lowercased())@example.com"), role: "user")
            _ = try await services.healthConsents.grant(platform: .apple, permissions: [.steps], to: account.id)
            let batch = HealthSyncBatch(provider: .healthkit, samples: samples(from: first, member: index))
            _ = try await services.healthSync.sync(
                batch, account: account.id, zone: .gmt, proof: Self.proof(of: account.id))
            accounts.append(account.id)
            if (index + 1) % 100 == 0 { progress("seeded \(index + 1) of \(members) members") }
        }
        let goal = Double(days) * 5_000
        let verified = try await challenge(services, "Verified month", first, last, goal, verified: true, accounts)
        let unverified = try await challenge(services, "Open month", first, last, goal, verified: false, accounts)
        let seedSeconds = (clock.now - seeding).timeInterval
        progress("seeded in \(Int(seedSeconds)) s; recomputing")
        var verifiedTimes: [Duration] = []
        var unverifiedTimes: [Duration] = []
        for _ in 0..<rounds {
            verifiedTimes.append(try await clock.measure { try await services.fitnessChallenges.recompute(verified) })
            unverifiedTimes.append(
                try await clock.measure { try await services.fitnessChallenges.recompute(unverified) })
        }
        var flagged = 0
        for account in accounts {
            let overview = try await services.fitnessChallenges.challenge(verified, for: account)
            if overview.exclusions?.implausibleDays.isEmpty == false { flagged += 1 }
        }
        return Result(
            members: members, days: days, samplesPerDay: samplesPerDay, samples: members * days * samplesPerDay,
            seedSeconds: seedSeconds, verifiedRecomputeP50Seconds: Self.median(verifiedTimes),
            unverifiedRecomputeP50Seconds: Self.median(unverifiedTimes),
            verifiedMembers: members - flagged, flaggedMembers: flagged)
    }

    /// A challenge over the window that every account joins.
    private func challenge(
        _ services: HaleServices, _ name: String, _ first: LocalDate, _ last: LocalDate, _ goal: Double,
        verified: Bool, _ accounts: [AccountID]
    ) async throws -> String {
        var draft = FitnessChallengeDraft(
            name: name, type: .steps, goal: goal, startDate: first, endDate: last, visibility: .public,
            includesUserEntered: nil)
        draft.verified = verified
        let id = try await services.fitnessChallenges.create(draft, by: accounts[0]).challenge.id.description
        for account in accounts.dropFirst() { _ = try await services.fitnessChallenges.join(id, account: account) }
        return id
    }

    /// A member's month: each day `samplesPerDay` two-minute samples of a watch's steps from 08:00 UTC, about 7,500
    /// steps a day; a shaker member's first day at 500 steps a minute, for hours.
    private func samples(from first: LocalDate, member: Int) -> [HealthSyncSample] {
        var samples: [HealthSyncSample] = []
        samples.reserveCapacity(days * samplesPerDay)
        let shaker = member % Self.shakerEvery == Self.shakerEvery - 1
        for dayIndex in 0..<days {
            let midnight = Date(timeIntervalSince1970: Double(first.adding(days: dayIndex).dayNumber) * 86_400)
            for index in 0..<samplesPerDay {
                let start = midnight.addingTimeInterval(8 * 3_600 + Double(index) * 120)
                let value = shaker && dayIndex == 0 ? 1_000 : Double(20 + (member + index) % 10)
                samples.append(
                    HealthSyncSample(
                        id: "bench-\(member)-\(dayIndex)-\(index)", type: "steps", value: value, unit: "count",
                        start: start, end: start.addingTimeInterval(120), timeZone: .gmt, deviceModel: "Watch"))
            }
        }
        return samples
    }

    /// What an App Attest assertion would have proved of a member's write; the bench measures storing and counting
    /// attested samples, not verifying assertions.
    static func proof(of account: AccountID) -> HealthWriteProof {
        HealthWriteProof(
            accountId: account, platform: "ios", keyId: "bench-key", appId: "TEAMID.bench.app", appVersion: nil,
            counter: 1, nonce: UUID().uuidString, bodySha256: "", createdAt: Date())
    }

    private static func median(_ times: [Duration]) -> Double {
        times.sorted()[times.count / 2].timeInterval
    }
}
