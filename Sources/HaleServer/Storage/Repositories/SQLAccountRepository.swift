import SQLKit

/// `AccountRepository` on SQL.
struct SQLAccountRepository: AccountRepository {
    let database: HaleDatabase

    func create(_ account: Account) async throws {
        do {
            try await database.sql.insert(into: "accounts").model(account, keyEncodingStrategy: .convertToSnakeCase)
                .run()
        } catch  where HaleDatabase.isConstraintViolation(error) {
            throw HaleError(.conflict, status: 409, message: "An account with this email already exists.")
        }
    }

    func find(_ id: AccountID) async throws -> Account? {
        try await database.sql.select().column("*").from("accounts").where("id", .equal, id)
            .first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func find(email: String) async throws -> Account? {
        try await database.sql.select().column("*").from("accounts").where("email", .equal, email)
            .first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func delete(_ id: AccountID) async throws -> Bool {
        try await database.sql.delete(from: "accounts").where("id", .equal, id).returning("id").all().count == 1
    }
}
