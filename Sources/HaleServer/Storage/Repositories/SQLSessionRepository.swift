import Foundation
import SQLKit

/// `SessionRepository` on SQL.
struct SQLSessionRepository: SessionRepository {
    let database: HaleDatabase

    func transaction<T: Sendable>(
        _ body: @escaping @Sendable (any SessionRepository) async throws -> T
    ) async throws -> T {
        try await database.writeTransaction { try await body(SQLSessionRepository(database: $0)) }
    }

    func create(_ record: SessionRecord) async throws {
        try await database.sql.insert(into: "sessions").model(record, keyEncodingStrategy: .convertToSnakeCase).run()
    }

    func find(_ id: SessionID) async throws -> Session? {
        try await selectSession(id).first(decoding: Session.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func findForUpdate(_ id: SessionID) async throws -> SessionRecord? {
        let query = selectSession(id)
        if database.isPostgres {
            query.for(.update)
        }
        return try await query.first(decoding: SessionRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    private func selectSession(_ id: SessionID) -> SQLSelectBuilder {
        database.sql.select().column("*").from("sessions").where("id", .equal, id)
    }

    func insert(_ token: RefreshTokenRecord) async throws {
        try await database.sql.insert(into: "refresh_tokens").model(token, keyEncodingStrategy: .convertToSnakeCase)
            .run()
    }

    func findToken(hash: String) async throws -> RefreshTokenRecord? {
        try await database.sql.select().column("*").from("refresh_tokens").where("token_hash", .equal, hash)
            .first(decoding: RefreshTokenRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func spend(tokenID: UUID, reason: RefreshTokenRecord.SpentReason, at date: Date) async throws -> Bool {
        let rows = try await database.sql.update("refresh_tokens")
            .set("spent_at", to: date).set("spent_reason", to: reason.rawValue)
            .where("id", .equal, tokenID).where("spent_at", .is, SQLLiteral.null)
            .returning("id").all()
        return rows.count == 1
    }

    func touch(_ session: SessionID, at date: Date, expiresAt: Date) async throws {
        try await database.sql.update("sessions").set("last_used_at", to: date).set("expires_at", to: expiresAt)
            .where("id", .equal, session).run()
    }

    func revoke(_ session: SessionID, of account: AccountID, reason: String, at date: Date) async throws -> Bool {
        let rows = try await database.sql.update("sessions")
            .set("revoked_at", to: date).set("revoke_reason", to: reason)
            .where("id", .equal, session).where("account_id", .equal, account)
            .where("revoked_at", .is, SQLLiteral.null)
            .returning("id").all()
        return rows.count == 1
    }

    func revokeAll(of account: AccountID, reason: String, at date: Date) async throws -> Int {
        try await database.sql.update("sessions")
            .set("revoked_at", to: date).set("revoke_reason", to: reason)
            .where("account_id", .equal, account).where("revoked_at", .is, SQLLiteral.null)
            .returning("id").all().count
    }

    func active(of account: AccountID, at date: Date) async throws -> [Session] {
        try await database.sql.select().column("*").from("sessions")
            .where("account_id", .equal, account).where("revoked_at", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, date).orderBy("created_at", .descending)
            .all(decoding: Session.self, keyDecodingStrategy: .convertFromSnakeCase)
    }
}
