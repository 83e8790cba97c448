import Foundation

/// Stores accounts.
public protocol AccountRepository: Sendable {
    /// Inserts a new account; throws `HaleError` with code `CONFLICT` when its email is taken.
    func create(_ account: Account) async throws
    /// The account with this identifier.
    func find(_ id: AccountID) async throws -> Account?
    /// When the account's sign-ins were last ended (signed out everywhere, a device revoked); nil if never.
    func signInsEnded(of account: AccountID) async throws -> Date?
    /// When the account of the Firebase user whose uid has this SHA-256 was deleted; nil if none was.
    func firebaseUserDeleted(uidHash: String) async throws -> Date?
    /// Whether the account has a way in of its own: a passkey, a device key not revoked, a social or Firebase
    /// identity, or a verified email address.
    func hasCredentials(_ account: AccountID) async throws -> Bool
    /// Whether the account has a way to sign in other than an email address: a passkey, an active device key or a
    /// social identity.
    func hasSignInCredentials(_ account: AccountID) async throws -> Bool
    /// The account with this (lowercased) email.
    func find(email: String) async throws -> Account?
    /// Deletes the account and, by cascade, everything it owns, queueing its Apple refresh tokens for revocation in
    /// the same transaction; returns whether it existed. The fitness challenges it created that others joined stay,
    /// their creator set to null.
    func delete(_ id: AccountID, at date: Date) async throws -> Bool
}
