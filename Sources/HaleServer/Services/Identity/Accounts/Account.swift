import Foundation

/// One person. Sign-in methods (passkeys, device keys, social identities) attach to an account.
public struct Account: Codable, Sendable, Equatable {
    /// The account's identifier.
    public var id: AccountID
    /// The account's verified email address, lowercased; `nil` when no sign-in method vouched for one.
    public var email: String?
    /// An email the user typed without proof, such as at passkey sign-up. It never links accounts.
    public var unverifiedEmail: String?
    /// The account's role, such as `user`, `client` or `cleaner`.
    public var role: String
    /// When the account was created.
    public var createdAt: Date
    /// When the account last changed.
    public var updatedAt: Date
}
