import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Seed 001's read endpoints and nonce over HTTP, on stored daily totals.
@Suite("HTTP: seed 001 health statistics, today and nonces")
struct HealthHTTPTests {
    /// 2025-07-24T23:30:00Z: still the 24th in UTC, already the 25th in Tokyo.
    static let now = Date(timeIntervalSince1970: 1_753_399_800)

    static func total(
        _ account: AccountID, _ day: String, source: String = "ios_health", steps: Int64, calories: Double = 0.5
    ) -> HealthDailyTotal {
        HealthDailyTotal(
            id: UUID(), accountId: account, day: LocalDate(day)!, source: source, platform: "ios",
            totals: HealthTotals(
                steps: steps, duration: 60, caloriesHundredths: HealthTotals.hundredths(calories),
                distanceHundredths: 1_025),
            createdAt: now, updatedAt: now)
    }

    static func get(_ app: Application, _ path: String, bearer: String?, headers extra: HTTPHeaders = [:])
        async throws -> TestingHTTPResponse
    {
        var headers = extra
        if let bearer { headers.add(name: .authorization, value: "Bearer \(bearer)") }
        return try await app.testing().sendRequest(.GET, path, headers: headers)
    }

    /// Checks seed 001's error shape and returns the message.
    static func error(
        _ response: TestingHTTPResponse, _ status: HTTPStatus, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> String
    {
        #expect(response.status == status, "\(response.body.string)", sourceLocation: sourceLocation)
        let body = try response.json()
        #expect(body["statusCode"] as? Int == Int(status.code), sourceLocation: sourceLocation)
        #expect(body["error"] as? String == status.reasonPhrase, sourceLocation: sourceLocation)
        #expect(body.keys.sorted() == ["error", "message", "statusCode"], sourceLocation: sourceLocation)
        return body["message"] as? String ?? ""
    }

    @Test("a nonce lasts five minutes and needs a signed-in account", arguments: TestDatabase.available)
    func nonce(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { Self.now }) { app in
            let (_, token) = try await makeAccount(app)
            let response = try await Self.get(app, "/health/attestation-nonce", bearer: token)
            #expect(response.status == .ok)
            let body = try response.json()
            #expect((body["nonce"] as? String)?.count ?? 0 >= 43)
            #expect(body["expiresAt"] as? String == "2025-07-24T23:35:00.000Z")
            _ = try Self.error(try await Self.get(app, "/health/attestation-nonce", bearer: nil), .unauthorized)
        }
    }

    @Test(
        "statistics by ISO week add up every source, count only the range's days, and keep empty weeks",
        arguments: TestDatabase.available)
    func weeklyStatistics(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { Self.now }) { app in
            let (account, token) = try await makeAccount(app)
            let (other, _) = try await makeAccount(app, email: "other@example.com")
            let repository = SQLHealthRepository(database: app.hale.database)
            for total in [
                Self.total(account.id, "2025-06-30", steps: 1_000),  // before the range, same week as its start
                Self.total(account.id, "2025-07-01", steps: 8_500, calories: 350.5),
                Self.total(account.id, "2025-07-01", source: "android_health", steps: 500, calories: 0.25),
                Self.total(account.id, "2025-07-24", steps: 3_000),
                Self.total(other.id, "2025-07-02", steps: 99_999),
            ] {
                _ = try await repository.save(total)
            }
            let response = try await Self.get(
                app, "/health/statistics?startDate=2025-07-01&endDate=2025-07-24&period=week", bearer: token)
            #expect(response.status == .ok, "\(response.body.string)")
            let body = try response.json()
            let items = try #require(body["items"] as? [[String: Any]])
            #expect(items.compactMap { $0["date"] as? String } == ["2025-W27", "2025-W28", "2025-W29", "2025-W30"])
            #expect(items.compactMap { $0["steps"] as? Int } == [9_000, 0, 0, 3_000])
            #expect(items.first?["calories"] as? Double == 350.75)
            #expect(items.first?["distance"] as? Double == 20.5)
            let summary = try #require(body["summary"] as? [String: Any])
            #expect(summary["date"] as? String == "2025-07-01 to 2025-07-24")
            #expect(summary["steps"] as? Int == 12_000)
        }
    }

    @Test("statistics default to today, by day")
    func statisticsDefaults() async throws {
        try await withHale(clock: HaleClock { Self.now }) { app in
            let (_, token) = try await makeAccount(app)
            let body = try await Self.get(app, "/health/statistics", bearer: token).json()
            #expect((body["items"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == ["2025-07-24"])
            #expect((body["summary"] as? [String: Any])?["date"] as? String == "2025-07-24 to 2025-07-24")
        }
    }

    @Test(
        "invalid statistics parameters are 400 in seed 001's shape",
        arguments: [
            "startDate=2025-7-01", "endDate=yesterday", "period=year", "startDate=2025-07-24&endDate=2025-07-01",
            "startDate=2000-01-01&endDate=2025-01-01", "user=someone-else", "period=day&period=week",
        ])
    func invalidStatistics(query: String) async throws {
        try await withHale(clock: HaleClock { Self.now }) { app in
            let (_, token) = try await makeAccount(app)
            let message = try Self.error(
                try await Self.get(app, "/health/statistics?\(query)", bearer: token), .badRequest)
            #expect(!message.isEmpty)
        }
    }

    @Test(
        "a range is at most 3,660 days: 9,999 years and one day over are 400s naming the limit, the longest is answered",
        arguments: [
            ("0001-01-01", "9999-12-31", "The date range must not be longer than 3660 days"),
            ("2016-01-01", "2026-01-08", "The date range must not be longer than 3660 days"),
            ("9999-12-31", "0001-01-01", "startDate must not be after endDate"),
            ("2016-01-01", "2026-01-07", nil),
        ] as [(String, String, String?)])
    func statisticsRangeBound(start: String, end: String, message: String?) async throws {
        try await withHale(clock: HaleClock { Self.now }) { app in
            let (_, token) = try await makeAccount(app)
            let response = try await Self.get(
                app, "/health/statistics?startDate=\(start)&endDate=\(end)&period=month", bearer: token)
            if let message {
                #expect(try Self.error(response, .badRequest) == message)
            } else {
                #expect(response.status == .ok)
                let body = try response.json()
                #expect((body["summary"] as? [String: Any])?["date"] as? String == "\(start) to \(end)")
                #expect((body["items"] as? [[String: Any]])?.count == 121, "January 2016 to January 2026, by month")
            }
        }
    }

    @Test(
        "today is the account's local day: X-Timezone, else the stored zone, else UTC",
        arguments: TestDatabase.available)
    func today(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { Self.now }) { app in
            let (account, token) = try await makeAccount(app)
            let repository = SQLHealthRepository(database: app.hale.database)
            _ = try await repository.save(Self.total(account.id, "2025-07-24", steps: 4_200))
            _ = try await repository.save(Self.total(account.id, "2025-07-25", steps: 25))

            let utc = try await Self.get(app, "/health/today", bearer: token).json()
            #expect(utc["date"] as? String == "2025-07-24")
            #expect(utc["steps"] as? Int == 4_200)
            #expect(utc["lastUpdated"] as? String == "2025-07-24T23:30:00.000Z")

            let tokyo = try await Self.get(app, "/health/today", bearer: token, headers: ["X-Timezone": "Asia/Tokyo"])
                .json()
            #expect(tokyo["date"] as? String == "2025-07-25")
            #expect(tokyo["steps"] as? Int == 25)

            try await repository.setTimeZone("Asia/Tokyo", of: account.id)
            #expect(try await Self.get(app, "/health/today", bearer: token).json()["date"] as? String == "2025-07-25")

            let bad = try await Self.get(app, "/health/today", bearer: token, headers: ["X-Timezone": "Mars/Olympus"])
            _ = try Self.error(bad, .badRequest)
        }
    }

    @Test("a day without data has zeros and no lastUpdated")
    func emptyToday() async throws {
        try await withHale(clock: HaleClock { Self.now }) { app in
            let (_, token) = try await makeAccount(app)
            let body = try await Self.get(app, "/health/today", bearer: token).json()
            #expect(body["steps"] as? Int == 0)
            #expect(body["lastUpdated"] is NSNull)
        }
    }

    @Test("a second submission for the same day and source replaces the first", arguments: TestDatabase.available)
    func replacement(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let repository = SQLHealthRepository(database: app.hale.database)
            let first = try await repository.save(Self.total(account.id, "2025-07-24", steps: 100))
            let second = try await repository.save(Self.total(account.id, "2025-07-24", steps: 300))
            #expect(!first.replaced && second.replaced)
            #expect(second.stored.id == first.stored.id)
            let day = LocalDate("2025-07-24")!
            let totals = try await repository.dailyTotals(of: account.id, from: day, through: day)
            #expect(totals[day]?.steps == 300)
        }
    }
}
