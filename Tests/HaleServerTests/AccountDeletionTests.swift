import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("HTTP: deleting an account")
struct AccountDeletionTests {
    @Test(
        "deleting an account removes what it owns, ends every credential and keeps its audit events",
        arguments: TestDatabase.available)
    func deleteAccount(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, token) = try await makeAccount(app)
            let (other, otherToken) = try await makeAccount(app, email: "other@example.com")
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            try await app.testing().test(.DELETE, "/api/v1/account", headers: .bearer(pair.accessToken)) { response in
                #expect(response.status == .ok)
                let body = try response.json()
                #expect(body["success"] as? Bool == true)
            }
            for bearer in [token, pair.accessToken] {
                try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(bearer)) { response in
                    #expect(response.status == .unauthorized)
                }
            }
            await #expect(throws: HaleError.self) { try await app.hale.sessions.refresh(pair.refreshToken) }
            #expect(try await app.hale.accounts.find(account.id) == nil)
            let sql = app.hale.database.sql
            for table in ["sessions", "refresh_tokens", "personal_access_tokens"] {
                let rows = try await sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()?
                    .decode(column: "n", as: Int.self)
                #expect(rows == (table == "personal_access_tokens" ? 1 : 0), "\(table)")
            }
            let events = try await app.hale.audit.events(of: account.id)
            #expect(events.map(\.eventType) == ["account_deleted"])
            #expect(try await app.hale.audit.verify() == .intact(count: 1))
            try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(otherToken)) { response in
                #expect(response.status == .ok)
            }
            #expect(try await app.hale.accounts.find(other.id) != nil)
        }
    }
}
