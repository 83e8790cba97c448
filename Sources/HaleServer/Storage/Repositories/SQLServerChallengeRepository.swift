import Foundation
import SQLKit

/// `ServerChallengeRepository` on SQL: consumption is a single `UPDATE … RETURNING`.
struct SQLServerChallengeRepository: ServerChallengeRepository {
    let database: HaleDatabase

    func insert(_ challenge: ServerChallenge) async throws {
        try await database.sql.insert(into: "server_challenges")
            .model(challenge, keyEncodingStrategy: .convertToSnakeCase).run()
    }

    func consume(kind: String, valueHash: String, binding: ChallengeBinding, at date: Date) async throws
        -> ServerChallenge?
    {
        let update = database.sql.update("server_challenges").set("consumed_at", to: date)
            .where("value_hash", .equal, valueHash).where("kind", .equal, kind)
            .where("consumed_at", .is, SQLLiteral.null).where("expires_at", .greaterThan, date)
        if let account = binding.accountId {
            update.where("account_id", .equal, account)
        }
        if let device = binding.deviceId {
            update.where("device_id", .equal, device)
        }
        if let session = binding.sessionId {
            update.where("session_id", .equal, session)
        }
        return try await update.returning(SQLLiteral.all)
            .first(decoding: ServerChallenge.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func find(valueHash: String) async throws -> ServerChallenge? {
        try await database.sql.select().column("*").from("server_challenges").where("value_hash", .equal, valueHash)
            .first(decoding: ServerChallenge.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func deleteExpired(before date: Date) async throws -> Int {
        try await database.sql.delete(from: "server_challenges").where("expires_at", .lessThan, date)
            .returning("id").all().count
    }
}
