import Foundation
import SQLKit

/// `AppleRevocationRepository` on SQL.
struct SQLAppleRevocationRepository: AppleRevocationRepository {
    let database: HaleDatabase

    func enqueue(_ revocation: AppleTokenRevocation) async throws {
        try await database.sql.insert(into: "apple_token_revocations")
            .model(revocation, keyEncodingStrategy: .convertToSnakeCase).run()
    }

    func claimDue(at date: Date, lease: Date, limit: Int) async throws -> [AppleTokenRevocation] {
        let due = database.sql.select().column("id").from("apple_token_revocations")
            .where("next_attempt_at", .lessThanOrEqual, date).orderBy("next_attempt_at").limit(limit)
        // The outer condition is checked again on a row another instance changed meanwhile, so one claim wins.
        return try await database.sql.update("apple_token_revocations").set("next_attempt_at", to: lease)
            .where("id", .in, SQLGroupExpression(due.select))
            .where("next_attempt_at", .lessThanOrEqual, date)
            .returning(SQLLiteral.all)
            .all(decoding: AppleTokenRevocation.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func complete(_ id: UUID) async throws {
        try await database.sql.delete(from: "apple_token_revocations").where("id", .equal, id).run()
    }

    func retry(_ id: UUID, at next: Date, error: String) async throws {
        try await database.sql.update("apple_token_revocations")
            .set("attempts", to: SQLRaw("attempts + 1")).set("next_attempt_at", to: next).set("last_error", to: error)
            .where("id", .equal, id).run()
    }

    func pendingCount() async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
            .from("apple_token_revocations").first(decodingColumn: "count", as: Int.self) ?? 0
    }
}
