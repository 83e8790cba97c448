import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Requests the fitness-challenge tests make.
enum FitnessChallengeHTTP {
    static let start = Date(timeIntervalSince1970: 1_762_300_800)  // 2025-11-05T00:00:00Z

    /// A create request's body over 2025-10-28 … 2025-11-03 unless given.
    static func body(
        name: String = "Ten thousand a day", type: String = "steps", goal: Double = 10_000,
        start: String = "2025-10-28", end: String = "2025-11-03", extra: String = ""
    ) -> String {
        #"{"name":"\#(name)","type":"\#(type)","goal":\#(goal),"startDate":"\#(start)","endDate":"\#(end)"\#(extra)}"#
    }

    static func create(_ app: Application, _ token: String, _ body: String) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(
            .POST, "/api/v1/challenges", headers: .json(bearer: token), body: .json(body))
    }

    /// Creates a challenge and answers its JSON.
    static func created(_ app: Application, _ token: String, _ body: String) async throws -> [String: Any] {
        let response = try await create(app, token, body)
        #expect(response.status == .created, "\(response.body.string)")
        return try response.json()["challenge"] as? [String: Any] ?? [:]
    }

    static func get(_ app: Application, _ token: String, _ path: String) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(.GET, "/api/v1/challenges" + path, headers: .bearer(token))
    }

    static func post(_ app: Application, _ token: String, _ path: String) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(.POST, "/api/v1/challenges" + path, headers: .bearer(token))
    }

    /// The caller's progress in the challenge, as `GET /api/v1/challenges/{id}` answers it.
    static func progress(_ app: Application, _ token: String, _ id: String) async throws -> Double? {
        let response = try await get(app, token, "/\(id)")
        #expect(response.status == .ok, "\(response.body.string)")
        let challenge = try response.json()["challenge"] as? [String: Any] ?? [:]
        return challenge["progress"] as? Double
    }

    /// The leaderboard as (account id, progress) pairs, in rank order.
    static func leaderboard(_ app: Application, _ token: String, _ id: String) async throws -> [[String: Any]] {
        let response = try await get(app, token, "/\(id)/leaderboard")
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.json()["leaderboard"] as? [[String: Any]] ?? []
    }

    /// A signed-up account that consents to steps, distance and calories from Apple.
    static func account(_ app: Application, _ email: String = "person@example.com") async throws -> (AccountID, String)
    {
        let (account, token) = try await makeAccount(app, email: email)
        _ = try await app.hale.healthConsents.grant(
            platform: .apple, permissions: [.steps, .distance, .calories], to: account.id)
        return (account.id, token)
    }
}
