import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Sample sync over HTTP on both databases: seed 000's daily totals and the seed 004 API's samples.
@Suite("HTTP: health sync (seeds 000 and 004)")
struct HealthSyncHTTPTests {
    static let now = Date(timeIntervalSince1970: 1_761_739_200)  // 2025-10-29T12:00:00Z

    static func post(
        _ app: Application, _ path: String, _ token: String, _ body: String, zone: String? = nil
    ) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders.json(bearer: token)
        if let zone { headers.add(name: "X-Timezone", value: zone) }
        return try await app.testing().sendRequest(.POST, path, headers: headers, body: .json(body))
    }

    static func grant(_ app: Application, _ account: AccountID, _ platform: String, _ permissions: [String])
        async throws
    {
        _ = try await app.hale.healthConsents.grant(
            platform: HealthPlatform(rawValue: platform)!, permissions: try HealthSampleType.list(permissions),
            to: account)
    }

    static func totals(
        _ app: Application, _ account: AccountID, _ type: HealthSampleType, _ first: String, _ last: String
    )
        async throws -> [String: Double]
    {
        let totals = try await app.hale.healthSync.dailyTotals(
            of: account, type: type, from: LocalDate(first)!, through: LocalDate(last)!)
        return Dictionary(uniqueKeysWithValues: totals.map { ($0.key.description, ($0.value * 1000).rounded() / 1000) })
    }

    static func log(_ response: TestingHTTPResponse) throws -> [String: Any] {
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.json()["syncLog"] as? [String: Any] ?? [:]
    }

    @Test(
        "seed 000: iOS sends a timestamp, Android a date; a later sync of the day replaces it",
        arguments: TestDatabase.available)
    func seed000(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { Self.now }) { app in
            let (account, token) = try await makeAccount(app)
            try await Self.grant(app, account.id, "apple", ["steps", "distance"])
            try await Self.grant(app, account.id, "google", ["steps", "distance"])
            let ios = try await Self.post(
                app, "/api/mobile/health/sync", token,
                #"{"platform":"apple","data":{"steps":5234.0,"distance":3210.5,"date":"2025-10-29T02:03:11Z"}}"#,
                zone: "America/New_York")
            #expect(try Self.log(ios)["recordsInserted"] as? Int == 2)
            #expect(try ios.json()["date"] as? String == "2025-10-28")
            let android = try await Self.post(
                app, "/api/mobile/health/sync", token,
                #"{"platform":"google","data":{"steps":4100,"distance":2800.0,"date":"2025-10-29"}}"#)
            #expect(try android.json()["date"] as? String == "2025-10-29")
            #expect(
                try await Self.totals(app, account.id, .steps, "2025-10-28", "2025-10-29") == [
                    "2025-10-28": 5234, "2025-10-29": 4100,
                ])
            let later = try await Self.post(
                app, "/api/mobile/health/sync", token,
                #"{"platform":"google","data":{"steps":6000,"distance":4000,"date":"2025-10-29"}}"#)
            #expect(try Self.log(later)["recordsUpdated"] as? Int == 2)
            #expect(try await Self.totals(app, account.id, .steps, "2025-10-29", "2025-10-29") == ["2025-10-29": 6000])
            #expect(
                try await Self.totals(app, account.id, .distance, "2025-10-29", "2025-10-29") == ["2025-10-29": 4000])
        }
    }

    @Test(
        "seed 000: without consent, or with a bad body, nothing is stored",
        arguments: [
            (#"{"platform":"apple","data":{"steps":10,"date":"2025-10-29"}}"#, 403, "CONSENT_REQUIRED"),
            (#"{"platform":"fitbit","data":{"steps":10,"date":"2025-10-29"}}"#, 400, "INVALID_REQUEST"),
            (#"{"platform":"google","data":{"steps":10,"date":"29/10/2025"}}"#, 400, "INVALID_REQUEST"),
            (#"{"platform":"google","data":{"steps":-1,"date":"2025-10-29"}}"#, 400, "INVALID_REQUEST"),
            (#"{"platform":"google","data":{"steps":100001,"date":"2025-10-29"}}"#, 400, "INVALID_REQUEST"),
            (#"{"platform":"google","data":{"date":"2025-10-29"}}"#, 400, "INVALID_REQUEST"),
            (#"{"platform":"google"}"#, 400, "INVALID_REQUEST"),
            (#"{"platform":"google","data":{"steps":"many","date":"2025-10-29"}}"#, 400, "INVALID_REQUEST"),
            (#"{"platform":"google","data":{"steps":10,"day":"2025-10-29"}}"#, 400, "INVALID_REQUEST"),
        ])
    func seed000Refusals(body: String, status: Int, code: String) async throws {
        try await withHale(clock: HaleClock { Self.now }) { app in
            let (account, token) = try await makeAccount(app)
            try await Self.grant(app, account.id, "google", ["steps"])
            let response = try await Self.post(app, "/api/mobile/health/sync", token, body)
            #expect(response.status.code == UInt(status), "\(response.body.string)")
            #expect(try response.coreError().error.code == code)
            #expect(try await Self.totals(app, account.id, .steps, "2025-10-28", "2025-10-30").isEmpty)
        }
    }

    @Test("an unknown field inside a sample is a 400 that names its path, and nothing is stored")
    func unknownSampleField() async throws {
        try await withHale(clock: HaleClock { Self.now }) { app in
            let (account, token) = try await makeAccount(app)
            try await Self.grant(app, account.id, "apple", ["steps"])
            let typo = HealthSampleSyncTests.sample("b", 20).replacingOccurrences(
                of: "}", with: #","userEnterd":true}"#)
            let body = HealthSampleSyncTests.batch([HealthSampleSyncTests.sample("a", 10), typo])
            let response = try await Self.post(app, "/api/v1/health/sync", token, body)
            #expect(response.status == .badRequest)
            #expect(try response.coreError().error.message == #"Unknown field "samples[1].userEnterd"."#)
            #expect(try await Self.totals(app, account.id, .steps, "2025-10-28", "2025-10-28").isEmpty)
        }
    }
}
