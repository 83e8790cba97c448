import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("Audit trail")
struct AuditTrailTests {
    private func appendThree(_ app: Application) async throws -> AccountID {
        let account = try await app.hale.accounts.create(email: "audit@example.com", role: "user")
        for type in [AuditEventType.deviceRegistered, .deviceDeactivated, .refreshTokenReuseDetected] {
            try await app.hale.audit.record(type, AuditTrail.Subject(account: account.id), details: ["k": "v"])
        }
        return account.id
    }

    @Test("an untouched chain verifies", arguments: TestDatabase.available)
    func intact(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            _ = try await appendThree(app)
            #expect(try await app.hale.audit.verify() == .intact(count: 3))
        }
    }

    @Test("an edited event breaks the chain at that event", arguments: TestDatabase.available)
    func edited(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            _ = try await appendThree(app)
            try await app.hale.database.sql.update("audit_events").set("details", to: #"{"k":"w"}"#)
                .where("sequence", .equal, 2).run()
            #expect(
                try await app.hale.audit.verify() == .broken(sequence: 2, reason: "its content does not match its hash")
            )
        }
    }

    @Test("a deleted event breaks the chain where it was", arguments: TestDatabase.available)
    func deleted(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            _ = try await appendThree(app)
            try await app.hale.database.sql.delete(from: "audit_events").where("sequence", .equal, 2).run()
            #expect(try await app.hale.audit.verify() == .broken(sequence: 3, reason: "event 2 is missing"))
        }
    }

    @Test("a re-hashed forgery still breaks the link from the next event")
    func rehashed() async throws {
        try await withHale { app in
            _ = try await appendThree(app)
            let sql = app.hale.database.sql
            var forged = try #require(
                try await sql.select().column("*").from("audit_events").where("sequence", .equal, 2)
                    .first(decoding: AuditEvent.self, keyDecodingStrategy: .convertFromSnakeCase))
            forged.details = #"{"k":"forged"}"#
            forged.hash = forged.expectedHash
            try await sql.update("audit_events").set("details", to: forged.details).set("hash", to: forged.hash)
                .where("sequence", .equal, 2).run()
            #expect(
                try await app.hale.audit.verify()
                    == .broken(sequence: 3, reason: "it does not link to the event before it"))
        }
    }

    @Test("parallel appends never fork the chain", .racesNeedPostgreSQL, arguments: TestDatabase.available)
    func parallelAppends(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let account = try await app.hale.accounts.create(email: "audit@example.com", role: "user")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await app.hale.audit.record(.deviceRegistered, AuditTrail.Subject(account: account.id))
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await app.hale.audit.verify() == .intact(count: 20))
        }
    }

    @Test("GET /api/v1/audit returns the caller's own events, newest first")
    func ownEvents() async throws {
        try await withHale { app in
            let mine = try await appendThree(app)
            let (other, otherBearer) = try await makeAccount(app, email: "other@example.com")
            try await app.hale.audit.record(.deviceRegistered, AuditTrail.Subject(account: other.id))
            let token = try await app.hale.personalAccessTokens.create(for: mine, name: "t").token
            let response = try await app.testing().sendRequest(.GET, "/api/v1/audit", headers: .bearer(token))
            #expect(response.status == .ok)
            let events = try #require(try response.json()["events"] as? [[String: Any]])
            #expect(events.compactMap { $0["sequence"] as? Int } == [3, 2, 1])
            #expect((events.first?["details"] as? [String: String]) == ["k": "v"])
            let theirs = try await app.testing().sendRequest(.GET, "/api/v1/audit", headers: .bearer(otherBearer))
            #expect((try theirs.json()["events"] as? [[String: Any]])?.count == 1)
            let tooMany = try await app.testing().sendRequest(
                .GET, "/api/v1/audit?limit=100000", headers: .bearer(token))
            #expect(tooMany.status == .badRequest)
        }
    }

    @Test("addresses are kept only as their network")
    func ipRanges() {
        #expect(IPRange.of("203.0.113.77") == "203.0.113.0/24")
        #expect(IPRange.of("2001:db8:1:2::7") == "2001:db8:1::/48")
        #expect(IPRange.of("::1") == "0:0:0::/48")
        #expect(IPRange.of("not an address") == nil)
    }
}
