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

    /// After a credential was added: a recovery session, having done its one thing, ends.
    public func added(by identity: AuthenticatedAccount) async throws {
        guard identity.isRecovery, let session = identity.sessionId else { return }
        try await sessions.revoke(session, of: identity.accountId, reason: "recovery_used")
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
