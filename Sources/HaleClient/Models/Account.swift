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

/// A one-time code that hands a session to another client.
public struct SessionHandoff: Sendable, Hashable, Decodable {
    /// The code.
    public let code: String
    /// When it stops being accepted.
    public let expiresAt: Date
}
