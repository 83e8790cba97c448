import Foundation

/// An account.
public struct Account: Sendable, Hashable, Decodable {
    /// Its id.
    public let id: String
    /// Its email, if it has one.
    public let email: String?
    /// Its role, such as `user`, `client` or `cleaner`.
    public let role: String
    /// When it was created.
    public let createdAt: Date
}
