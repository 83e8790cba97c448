import Foundation
import HaleTesting
import Testing

@testable import HaleServer

@Suite("Personal access tokens")
struct PersonalAccessTokenTests {
    @Test(arguments: TestDatabase.available)
    func aTokenVerifiesUntilRevoked(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, token) = try await makeAccount(app)
            let parts = token.split(separator: "|")
            #expect(parts.count == 2)
            let verified = try await app.hale.personalAccessTokens.verify(token)
            #expect(verified.accountId == account.id)
            #expect(try await app.hale.personalAccessTokens.revoke(verified.id))
            await #expect(throws: HaleError.invalidToken) { try await app.hale.personalAccessTokens.verify(token) }
        }
    }

    @Test(arguments: TestDatabase.available)
    func onlyTheSecretsHashIsStored(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (_, token) = try await makeAccount(app)
            let secret = String(token.split(separator: "|")[1])
            let row = try #require(
                try await app.hale.database.sql.raw("SELECT secret_hash FROM personal_access_tokens").first())
            #expect(try row.decode(column: "secret_hash", as: String.self) == OpaqueToken.hash(secret))
        }
    }

    @Test func wrongOrMalformedTokensAreRejected() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let id = token.split(separator: "|")[0]
            for candidate in ["\(id)|wrong", "\(id)|", "|secret", "x|secret", "999|secret", "-1|secret", "0|s"] {
                await #expect(throws: HaleError.invalidToken) {
                    try await app.hale.personalAccessTokens.verify(candidate)
                }
            }
        }
    }
}
