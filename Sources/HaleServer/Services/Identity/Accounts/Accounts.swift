import Foundation

/// Creates and finds accounts.
public struct Accounts: Sendable {
    let repository: any AccountRepository
    let audit: AuditTrail
    let clock: HaleClock

    /// Creates an account. A verified email must be unique; an unverified one is only stored.
    public func create(email: AccountEmail?, role: String, unverifiedEmail: AccountEmail? = nil) async throws
        -> Account
    {
        let now = clock.now()
        let account = Account(
            id: .random(), email: email?.value, unverifiedEmail: unverifiedEmail?.value,
            role: try Self.validatedRole(role), createdAt: now, updatedAt: now)
        try await repository.create(account)
        return account
    }

    /// The account with this identifier.
    public func find(_ id: AccountID) async throws -> Account? {
        try await repository.find(id)
    }

    /// The account with this email, compared case-insensitively.
    public func find(email: AccountEmail) async throws -> Account? {
        try await repository.find(email: email.value)
    }

    /// Deletes the account with its sign-in methods, sessions, tokens, devices, profile, health data and memberships,
    /// and queues its Apple refresh tokens for revocation. Returns whether it existed. Fitness challenges it created
    /// stay for their other members, with no creator. The audit trail keeps the account's events, and the deletion
    /// destroys the key of their pseudonym, so they no longer name the person; `account_deleted` is appended under
    /// the same pseudonym, read before the key goes.
    public func delete(_ id: AccountID) async throws -> Bool {
        let pseudonym = try await audit.pseudonym(of: id)
        guard try await repository.delete(id, at: clock.now()) else { return false }
        try await audit.recordDeletion(of: id, pseudonym: pseudonym)
        return true
    }

    /// An email as a client may send it: at most 254 characters (RFC 5321's longest path), no control characters.
    public static let emailRule = TextRule(1...254, .characters, .noControl)

    /// A role is a short lowercase identifier: a letter, then letters, digits, `_` or `-`, at most 32 in all.
    public static func validatedRole(_ role: String) throws -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_-")
        guard let first = role.first, first.isLetter, role.count <= 32, role.allSatisfy(allowed.contains) else {
            throw InvalidInput(
                "role", .described("The role must be a lowercase identifier such as user, client or cleaner"))
        }
        return role
    }
}
