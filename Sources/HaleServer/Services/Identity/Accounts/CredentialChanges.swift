import Foundation

/// The rule for whatever changes how an account is reached: adding or removing a passkey or a device key, deleting
/// the account, signing out everywhere. A stolen, handed-off or tool's token must not plant a credential that
/// outlives it, nor remove the owner's, so each needs the person: a sign-in by a credential within
/// `tokens.freshSignInWindow`, or a step-up ceremony on the session (`FreshSignIn`).
///
/// Exempt: the first credential of an account that has none (one an operator made with `hale accounts create`),
/// enrolled with the account's own token; and sign-up, where the account and its first credential are made in one
/// ceremony and no token is presented at all.
public struct CredentialChanges: Sendable {
    let freshSignIn: FreshSignIn
    let accounts: any AccountRepository
    let sessions: Sessions

    /// Removing a credential, deleting the account, signing out everywhere: a fresh sign-in, always.
    public func requireToRemove(_ identity: AuthenticatedAccount) throws {
        try freshSignIn.require(identity)
    }

    /// Adds a credential with `add` once `requireToAdd` allows it. A recovery session is spent first, atomically, so
    /// of two enrolments racing on one recovery session one goes ahead and the other is `TOKEN_INVALID`; if adding
    /// then fails (a bad signature, say), the session is given back, unless the account was signed out everywhere
    /// meanwhile.
    public func enrol<Added>(by identity: AuthenticatedAccount, _ add: () async throws -> Added) async throws -> Added {
        try await requireToAdd(identity)
        guard identity.isRecovery, let session = identity.sessionId else { return try await add() }
        guard let spentAt = try await sessions.spendRecovery(session, of: identity.accountId) else {
            throw HaleError.invalidToken
        }
        do {
            return try await add()
        } catch {
            try? await sessions.reopenRecovery(session, of: identity.accountId, spentAt: spentAt)
            throw error
        }
    }

    /// Adding a credential: a fresh sign-in, a recovery session (which exists for that), or an account that has no
    /// credential yet.
    public func requireToAdd(_ identity: AuthenticatedAccount) async throws {
        guard !identity.isRecovery else { return }
        do {
            try freshSignIn.require(identity)
        } catch let refusal as HaleError {
            guard try await !accounts.hasCredentials(identity.accountId) else { throw refusal }
        }
    }
}
