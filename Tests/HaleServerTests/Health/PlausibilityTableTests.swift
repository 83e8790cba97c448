import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// One plausibility table for every route that takes health data: changing `health.maxSteps` moves the limit of
/// seed 001's upload, seed 000's daily sync, the sample sync and a fitness challenge's goal together.
@Suite("Health: one configured plausibility table for every route")
struct PlausibilityTableTests {
    @Test("health.maxSteps of 500: 501 steps is refused on all four routes, in each one's shape; 500 is taken")
    func oneTableForEveryRoute() async throws {
        try await HealthSubmissionTests.withFixture(settings: ["health.maxSteps": "500"]) { fixture in
            let app = fixture.app
            try await fixture.registerKey()
            let nonce = try await fixture.nonce()
            let upload = try await fixture.submit(nonce: nonce, token: "AAAA", steps: 501)
            #expect(try HealthSubmissionTests.message(upload, .badRequest) == "Step count is implausibly high")
            let accepted = try await fixture.submit(
                nonce: nonce, token: try fixture.assertion(nonce, counter: 1), steps: 500)
            #expect(accepted.status == .created, "\(accepted.body.string)")

            let (account, token) = try await makeAccount(app, email: "syncs@example.com")
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            let yesterday = LocalDate(at: Date(), in: .gmt).adding(days: -1)
            let daily = try await HealthSyncHTTPTests.post(
                app, "/api/mobile/health/sync", token,
                #"{"platform":"apple","data":{"steps":501,"date":"\#(yesterday)"}}"#)
            #expect(daily.status == .badRequest)
            #expect(try daily.coreError().error.message == "data.steps is implausibly high: at most 500 steps a day")

            let start = "\(yesterday)T09:00:00Z"
            let end = "\(yesterday)T10:00:00Z"
            let body = try await HealthSampleSyncTests.sync(
                app, token,
                HealthSampleSyncTests.batch([
                    HealthSampleSyncTests.sample("over", 501, start: start, end: end),
                    HealthSampleSyncTests.sample("limit", 500, start: start, end: end),
                ]))
            let rejected = body["rejected"] as? [[String: Any]] ?? []
            #expect(rejected.map { $0["index"] as? Int } == [0])
            #expect(rejected.first?["code"] as? String == "VALUE_IMPLAUSIBLE")
            #expect(rejected.first?["message"] as? String == "The value is implausibly high: at most 500 steps a day.")

            let first = yesterday.adding(days: -6)
            let challenge = try await FitnessChallengeHTTP.create(
                app, token, FitnessChallengeHTTP.body(goal: 3_501, start: "\(first)", end: "\(yesterday)"))
            #expect(challenge.status == .badRequest)
            #expect(
                try challenge.coreError().error.message.contains(
                    "goal must be at most 3500: 500 steps a day over the challenge's days"),
                "\(challenge.body.string)")
            let fits = try await FitnessChallengeHTTP.create(
                app, token, FitnessChallengeHTTP.body(goal: 3_500, start: "\(first)", end: "\(yesterday)"))
            #expect(fits.status == .created, "\(fits.body.string)")
        }
    }
}
