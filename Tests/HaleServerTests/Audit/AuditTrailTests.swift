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
        let account = try await app.hale.accounts.create(email: try AccountEmail("audit@example.com"), role: "user")
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

    @Test(
        "a changed account, time, network, device or session breaks the chain at that event",
        arguments: [
            ("account_pseudonym", SQLBind("someone-else")), ("created_at", SQLBind(Date(timeIntervalSince1970: 0))),
            ("ip_range", SQLBind("198.51.100.0/24")), ("device_id", SQLBind(UUID())), ("session_id", SQLBind(UUID())),
        ] as [(String, SQLBind)])
    func changedColumn(column: String, value: SQLBind) async throws {
        try await withHale { app in
            _ = try await appendThree(app)
            try await app.hale.database.sql.update("audit_events").set(SQLIdentifier(column), to: value)
                .where("sequence", .equal, 2).run()
            #expect(
                try await app.hale.audit.verify() == .broken(sequence: 2, reason: "its content does not match its hash")
            )
        }
    }

    @Test(
        "its newest events cut off, the chain still links; an anchor taken before shows the cut",
        arguments: TestDatabase.available)
    func cutShort(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            _ = try await appendThree(app)
            let head = try #require(try await app.hale.audit.head())
            #expect(head.sequence == 3)
            try await app.hale.database.sql.delete(from: "audit_events").where("sequence", .greaterThanOrEqual, 2).run()
            #expect(
                try await app.hale.audit.verify() == .intact(count: 1),
                "what is left links: the chain alone cannot tell")
            #expect(
                try await app.hale.audit.verify(anchors: [head])
                    == .broken(
                        sequence: 3,
                        reason: "the chain ends at event 1, before this anchored event: its newest events were removed")
            )
        }
    }

    @Test("an anchor's hash must match its event's")
    func anchorHash() async throws {
        try await withHale { app in
            _ = try await appendThree(app)
            let head = try #require(try await app.hale.audit.head())
            #expect(try await app.hale.audit.verify(anchors: [head]) == .intact(count: 3))
            let wrong = AuditAnchor(sequence: 3, hash: String(repeating: "a", count: 64))
            #expect(
                try await app.hale.audit.verify(anchors: [wrong])
                    == .broken(sequence: 3, reason: "its hash is not the anchored one"))
        }
    }

    @Test(
        "an anchor is written SEQUENCE:HASH, the hash 64 lower-case hex digits",
        arguments: [
            ("3:" + String(repeating: "0f", count: 32), true), ("0:" + String(repeating: "0", count: 64), false),
            ("3:" + String(repeating: "0F", count: 32), false), ("3:" + String(repeating: "0", count: 63), false),
            ("3", false), ("x:" + String(repeating: "0", count: 64), false), ("", false),
        ])
    func anchorText(text: String, valid: Bool) {
        #expect((AuditAnchor(text) != nil) == valid)
        if valid { #expect(AuditAnchor(text)?.description == text) }
    }

    @Test("the server writes the head to its log, naming no account")
    func headLogged() async throws {
        try await withHale { app in
            _ = try await appendThree(app)
            let head = try #require(try await app.hale.audit.head())
            let capture = LogCapture()
            await AuditHeadLogService.log(app.hale.audit, logger: capture.logger())
            #expect(capture.text.hasPrefix("info audit head [\"anchor\": \(head)]"), "\(capture.text)")
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
            let account = try await app.hale.accounts.create(email: try AccountEmail("audit@example.com"), role: "user")
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

    /// Each racer appends through a `HaleDatabase` of its own, as separate instances do: none shares another's
    /// in-process queue, so only the table lock keeps two of them from extending the same tail. PostgreSQL only:
    /// instances share a SQLite file through one process's write gate, never several.
    @Test(
        "parallel appends from several instances never fork the chain", .racesNeedPostgreSQL,
        arguments: [TestDatabase.postgres])
    func parallelAppendsFromSeveralInstances(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let account = try await app.hale.accounts.create(email: try AccountEmail("audit@example.com"), role: "user")
            let appends = (0..<6).map { _ in
                app.hale.audit.prepare(.deviceRegistered, AuditTrail.Subject(account: account.id))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for append in appends {
                    let instance = SQLAuditRepository(database: try HaleDatabase({ app.db }))
                    group.addTask { _ = try await instance.append(append) }
                }
                try await group.waitForAll()
            }
            #expect(try await app.hale.audit.verify() == .intact(count: 6))
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
