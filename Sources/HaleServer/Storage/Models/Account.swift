import Foundation

/// One person. Sign-in methods (passkeys, device keys, social identities) attach to an account.
public struct Account: Codable, Sendable, Equatable {
    /// The account's identifier.
    public var id: AccountID
    /// The account's email address, lowercased; `nil` when the sign-in method gave none.
    public var email: String?
    /// The account's role, such as `user`, `client` or `cleaner`.
    public var role: String
    /// When the account was created.
    public var createdAt: Date
    /// When the account last changed.
    public var updatedAt: Date
}
