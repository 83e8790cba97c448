import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Seed 004's connections: connect with permissions (which grants consent), list, disconnect, reconnect.
@Suite("HTTP: health connections (seed 004)")
struct HealthConnectionHTTPTests {
    static let start = Date(timeIntervalSince1970: 1_738_400_000)  // 2025-02-01T08:53:20Z

    static func connect(_ app: Application, _ token: String, _ body: String) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(
            .POST, "/api/v1/health/connections", headers: .json(bearer: token), body: .json(body))
    }

    @Test(
        "connecting as seed 004's app does grants consent; disconnecting keeps it; reconnecting starts anew",
        arguments: TestDatabase.available)
    func lifecycle(database: TestDatabase) async throws {
        let clock = TestClock(Self.start)
        try await withHale(on: database, clock: clock.clock) { app in
            let (account, token) = try await makeAccount(app)
            let connected = try await Self.connect(
                app, token, #"{"provider":"healthkit","permissions":["steps","activeMinutes","calories"]}"#)
            #expect(connected.status == .created, "\(connected.body.string)")
            let connection = try connected.json()["connection"] as? [String: Any] ?? [:]
            #expect(connection["provider"] as? String == "healthkit")
            #expect(connection["permissionsGranted"] as? [String] == ["steps", "activeMinutes", "calories"], "as sent")
            #expect(connection["isActive"] as? Bool == true)
            #expect(connection["connectedAt"] as? String == "2025-02-01T08:53:20.000Z")
            #expect(connection.keys.contains("lastSyncAt") && connection.keys.contains("disconnectedAt"))
            #expect(
                try await app.hale.healthConsents.current(of: account.id).map(\.permission)
                    == [.activeMinutes, .calories, .steps])

            clock.advance(.seconds(60))
            let gone = try await app.testing().sendRequest(
                .DELETE, "/api/v1/health/connections/healthkit", headers: .bearer(token))
            #expect(gone.status == .ok)
            let disconnected = try gone.json()["connection"] as? [String: Any] ?? [:]
            #expect(disconnected["isActive"] as? Bool == false)
            #expect(disconnected["disconnectedAt"] as? String == "2025-02-01T08:54:20.000Z")
            #expect(try await app.hale.healthConsents.current(of: account.id).count == 3)
            let twice = try await app.testing().sendRequest(
                .DELETE, "/api/v1/health/connections/healthkit", headers: .bearer(token))
            #expect(twice.status == .notFound)

            clock.advance(.seconds(60))
            _ = try await Self.connect(app, token, #"{"provider":"healthkit","permissions":["steps"]}"#)
            _ = try await Self.connect(app, token, #"{"provider":"health_connect","permissions":["distance"]}"#)
            let listed = try await app.testing().sendRequest(
                .GET, "/api/v1/health/connections", headers: .bearer(token))
            let connections = try listed.json()["connections"] as? [[String: Any]] ?? []
            #expect(connections.map { $0["provider"] as? String } == ["health_connect", "healthkit"])
            let healthkit = connections.last ?? [:]
            #expect(healthkit["isActive"] as? Bool == true)
            #expect(healthkit["connectedAt"] as? String == "2025-02-01T08:55:20.000Z")
            #expect(healthkit["permissionsGranted"] as? [String] == ["steps"])
            #expect(healthkit["disconnectedAt"] is NSNull)
            #expect(healthkit["id"] as? String == connection["id"] as? String)
        }
    }

    @Test(
        "a bad connection request is a 400 that says what is wrong",
        arguments: [
            (#"{"permissions":["steps"]}"#, "provider must be one of: healthkit, health_connect, googlefit"),
            (#"{"provider":"fitbit","permissions":["steps"]}"#, "provider must be one of"),
            (#"{"provider":"healthkit","permissions":[]}"#, "permissions must be a non-empty list"),
            (#"{"provider":"healthkit","permissions":["sleep"]}"#, "Unknown permission"),
            (#"{"provider":"healthkit","permissions":["steps"],"auto":true}"#, "auto"),
        ])
    func badRequests(body: String, message: String) async throws {
        try await withHale { app in
            let (account, token) = try await makeAccount(app)
            let response = try await Self.connect(app, token, body)
            #expect(response.status == .badRequest, "\(response.body.string)")
            #expect(try response.coreError().error.message.contains(message), "\(response.body.string)")
            #expect(try await app.hale.healthConnections.list(of: account.id).isEmpty)
            #expect(try await app.hale.healthConsents.current(of: account.id).isEmpty)
        }
    }

    @Test("another account's connection is not listed and cannot be disconnected")
    func scopedByAccount() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let (_, other) = try await makeAccount(app, email: "other@example.com")
            _ = try await Self.connect(app, token, #"{"provider":"googlefit","permissions":["steps"]}"#)
            let listed = try await app.testing().sendRequest(
                .GET, "/api/v1/health/connections", headers: .bearer(other))
            #expect((try listed.json()["connections"] as? [Any])?.isEmpty == true)
            let gone = try await app.testing().sendRequest(
                .DELETE, "/api/v1/health/connections/googlefit", headers: .bearer(other))
            #expect(gone.status == .notFound)
        }
    }
}
