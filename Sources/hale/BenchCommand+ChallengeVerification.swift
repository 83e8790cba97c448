import ArgumentParser
import Foundation
import HaleServer

extension BenchCommand {
    /// `hale bench challenge-verification`.
    struct ChallengeVerification: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "challenge-verification",
            abstract: "Recomputing a verified fitness challenge's progress for every member, beside an unverified one.",
            discussion: """
                Creates the members in the configured database; each syncs, attested, a month of a watch's steps \
                (by default 1,000 members, 30 days, 300 samples a day: 9 million samples, stored through the sync as \
                a client's would be). Every 50th member has a day no person could walk. Two challenges over the \
                month, one verified and one not, are joined by all; then each is recomputed from the members' daily \
                totals, and the median of the rounds is reported. Run it against an empty PostgreSQL database.
                """)

        @OptionGroup var options: GlobalOptions
        @Option(help: "Members, 1 to 10000.") var members: Int = 1_000
        @Option(help: "Days of the challenge and of each member's data, 1 to 60.") var days: Int = 30
        @Option(help: "Samples a member syncs a day, 1 to 300 (one batch a member holds at most 10000).")
        var samplesPerDay: Int = 300
        @Option(help: "Recomputations of each challenge.") var rounds: Int = 5
        @Flag(help: "Print JSON instead of text.") var json = false

        func validate() throws {
            guard (1...10_000).contains(members), (1...60).contains(days), (1...300).contains(samplesPerDay),
                days * samplesPerDay <= 10_000, (1...100).contains(rounds)
            else {
                throw ValidationError(
                    "--members must be 1 to 10000, --days 1 to 60, --samples-per-day 1 to 300 (days × samples at"
                        + " most 10000), --rounds 1 to 100")
            }
        }

        func run() async throws {
            let benchmark = ChallengeVerificationBenchmark(
                members: members, days: days, samplesPerDay: samplesPerDay, rounds: rounds)
            let result = try await options.withServices { services in
                try await benchmark.run(services) { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(result), as: UTF8.self))
                return
            }
            print(
                String(
                    format: """
                        %d members × %d days × %d samples a day = %d samples, seeded in %.0f s
                        recompute, verified:   p50 %.3f s (%d members verified, %d with a day left out)
                        recompute, unverified: p50 %.3f s (baseline, same members and days)
                        """, result.members, result.days, result.samplesPerDay, result.samples, result.seedSeconds,
                    result.verifiedRecomputeP50Seconds, result.verifiedMembers, result.flaggedMembers,
                    result.unverifiedRecomputeP50Seconds))
        }
    }
}
