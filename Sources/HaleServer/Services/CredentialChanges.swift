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

    /// Removing a credential, deleting the account, signing out everywhere: a fresh sign-in, always.
    public func requireToRemove(_ identity: AuthenticatedAccount) throws {
        try freshSignIn.require(identity)
    }

    /// Adding a credential: a fresh sign-in, or an account that has no credential yet.
    public func requireToAdd(_ identity: AuthenticatedAccount) async throws {
        do {
            try freshSignIn.require(identity)
        } catch let refusal as HaleError {
            guard try await !accounts.hasCredentials(identity.accountId) else { throw refusal }
        }
    }
}
