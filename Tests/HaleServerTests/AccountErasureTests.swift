import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Deleting an account, proven table by table: every table the migrations create is either account-owned, and holds
/// no row of the account afterwards, or listed here as not account-owned, with the reason. A table added later
/// without being classified fails the test.
@Suite("Deleting an account empties every table of its rows")
struct AccountErasureTests {
    /// The tables that hold no one account's data, and why each stays as it is.
    static let notAccountOwned: [String: String] = [
        "_fluent_migrations": "the log of the migrations run: the schema's, no one's",
        "signing_keys": "the server's keys that sign access tokens",
        "provenance_keys": "the server's keys that sign provenance statements",
        "admin_api_keys": "the app backend's keys for the admin API, which belong to no account",
        "development_attestation_authorities": "this server's development attestation authority",
        "apple_token_revocations":
            "Apple refresh tokens that erasure queues for revocation at Apple, as Apple requires; a row holds no "
            + "account id and is deleted once Apple confirms",
        "firebase_deleted_users":
            "the SHA-256 of a deleted account's Firebase uids and when, so that a Firebase ID token from before the"
            + " deletion signs in to no account: no account id, and a hash of an identifier another service issued",
        "webhook_endpoints": "the app backend's webhook endpoints and their sealed secrets, no account's",
        "webhook_subscriptions": "the event types each of the app backend's endpoints takes",
        "audit_events":
            "the append-only, hash-chained security trail: deleting a row breaks the hash of every event after it. "
            + "It names accounts only by keyed pseudonym; the key (audit_account_keys) goes with the account",
    ]

    /// Every account-owned table, with the condition that selects the seeded account's rows in it.
    static func accountOwned(_ seed: AccountSeed) -> [String: SQLQueryString] {
        let id = seed.account
        return [
            "accounts": "id = \(bind: id)",
            "audit_account_keys": "account_id = \(bind: id)",
            "sessions": "account_id = \(bind: id)",
            "refresh_tokens": "id = \(bind: seed.refreshToken)",
            "personal_access_tokens": "account_id = \(bind: id)",
            "recovery_codes": "account_id = \(bind: id)",
            "server_challenges": "account_id = \(bind: id)",
            "passkey_users": "account_id = \(bind: id)",
            "passkey_credentials": "account_id = \(bind: id)",
            "devices": "account_id = \(bind: id)",
            "device_keys": "account_id = \(bind: id)",
            "device_sign_in_failures": "device_id = \(bind: seed.device)",
            "social_identities": "account_id = \(bind: id)",
            "cleaner_profiles": "account_id = \(bind: id)",
            "account_services": "account_id = \(bind: id)",
            "push_registrations": "account_id = \(bind: id)",
            "health_daily_totals": "account_id = \(bind: id)",
            "health_day_summaries": "account_id = \(bind: id)",
            "app_attest_keys": "account_id = \(bind: id)",
            "health_consents": "account_id = \(bind: id)",
            "health_connections": "account_id = \(bind: id)",
            "health_samples": "account_id = \(bind: id)",
            "health_write_proofs": "account_id = \(bind: id)",
            "health_rollups": "account_id = \(bind: id)",
            "health_sync_logs": "account_id = \(bind: id)",
            "health_imports": "account_id = \(bind: id)",
            "fitness_challenges": "creator_account_id = \(bind: id)",
            "fitness_challenge_members": "account_id = \(bind: id)",
            "push_outbox": "account_id = \(bind: id)",
            "mail_outbox": "account_id = \(bind: id)",
            "email_addresses": "account_id = \(bind: id)",
            "email_codes": "account_id = \(bind: id)",
            "account_recoveries": "account_id = \(bind: id)",
            "confirmations": "account_id = \(bind: id)",
            // Its events, delivered or not, go with it: the backend then hears only account.deleted, written after.
            "webhook_events": "account_id = \(bind: id) AND type <> 'account.deleted'",
            "webhook_deliveries": """
            event_sequence IN (SELECT sequence FROM webhook_events WHERE account_id = \(bind: id)
                AND type <> 'account.deleted')
            """,
            "webhook_attempts": """
            delivery_id IN (SELECT d.id FROM webhook_deliveries d JOIN webhook_events e
                ON e.sequence = d.event_sequence WHERE e.account_id = \(bind: id) AND e.type <> 'account.deleted')
            """,
        ]
    }

    /// The tables the migrations made, read from the database itself.
    static func tables(_ app: Application) async throws -> Set<String> {
        let query: SQLQueryString =
            app.hale.database.isPostgres
            ? """
            SELECT table_name AS name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
            """
            : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        return Set(
            try await app.hale.database.sql.raw(query).all().map { try $0.decode(column: "name", as: String.self) })
    }

    static func count(_ app: Application, _ table: String, _ condition: SQLQueryString) async throws -> Int {
        try await app.hale.database.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE \(condition)").first()?
            .decode(column: "n", as: Int.self) ?? 0
    }

    @Test(
        "every table is classified, and no account-owned one keeps a row of the deleted account",
        arguments: TestDatabase.available)
    func tableByTable(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let (other, _) = try await makeAccount(app, email: "other@example.com")
            _ = try await app.hale.webhooks.add(url: "https://hooks.example.com/erasure", eventTypes: ["*"])
            let seed = AccountSeed(account: account.id)
            let otherSeed = AccountSeed(account: other.id)
            let now = app.hale.clock.now()
            try await seed.write(on: app.hale.database.sql, at: now)
            try await otherSeed.write(on: app.hale.database.sql, at: now)

            let tables = try await Self.tables(app)
            let owned = Self.accountOwned(seed)
            #expect(Set(owned.keys).isDisjoint(with: Self.notAccountOwned.keys))
            #expect(
                tables.subtracting(owned.keys).subtracting(Self.notAccountOwned.keys).isEmpty,
                "classify each new table as account-owned (with a seeded row) or not, with a reason")
            #expect(Set(owned.keys).union(Self.notAccountOwned.keys) == tables, "no classified table is gone")
            for (table, condition) in owned.sorted(by: { $0.key < $1.key }) {
                #expect(try await Self.count(app, table, condition) > 0, "the seed wrote a row in \(table)")
            }

            let fresh = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "passkey", rememberMe: false)
            let response = try await app.testing().sendRequest(
                .DELETE, "/api/v1/account", headers: .bearer(fresh.accessToken))
            #expect(response.status == .ok)

            for (table, condition) in owned.sorted(by: { $0.key < $1.key }) {
                #expect(try await Self.count(app, table, condition) == 0, "\(table) keeps a row of the deleted account")
            }
            for (table, condition) in Self.accountOwned(otherSeed).sorted(by: { $0.key < $1.key }) {
                #expect(try await Self.count(app, table, condition) > 0, "\(table) lost the other account's row")
            }
            #expect(try await app.hale.audit.verify() == .intact(count: 1))
        }
    }

    @Test(
        "after deletion the audit trail names no one, keeps its events and still verifies",
        arguments: TestDatabase.available)
    func auditTrail(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let (other, _) = try await makeAccount(app, email: "other@example.com")
            let audit = app.hale.audit
            try await audit.record(.passkeyRegistered, .init(account: account.id))
            try await audit.record(.passkeyRegistered, .init(account: other.id))
            try await audit.record(.signedOutEverywhere, .init(account: account.id))
            let pseudonym = try #require(try await audit.events(of: account.id).first?.accountPseudonym)
            #expect(pseudonym != account.id.description && pseudonym.count == 64)
            #expect(try await audit.events(of: other.id).first?.accountPseudonym != pseudonym)
            #expect(try await audit.verify() == .intact(count: 3))

            #expect(try await app.hale.accounts.delete(account.id))

            #expect(try await audit.verify() == .intact(count: 4))
            #expect(try await audit.events(of: account.id).isEmpty)
            #expect(try await audit.events(of: other.id).count == 1)
            let rows = try await app.hale.database.sql.raw(
                "SELECT account_pseudonym, event_type, details FROM audit_events ORDER BY sequence"
            ).all()
            let pseudonyms = try rows.map { try $0.decode(column: "account_pseudonym", as: String.self) }
            // The deletion is recorded under the same pseudonym, whose key is now gone.
            #expect(pseudonyms.filter { $0 == pseudonym }.count == 3)
            #expect(try rows.last?.decode(column: "event_type", as: String.self) == "account_deleted")
            for row in rows {
                for column in ["account_pseudonym", "details"] {
                    #expect(try !row.decode(column: column, as: String.self).contains(account.id.description))
                }
            }
            #expect(try await Self.count(app, "audit_account_keys", "account_id = \(bind: account.id)") == 0)
        }
    }
}
