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

/// One of the account's security events.
public struct SecurityEvent: Sendable, Hashable, Decodable {
    /// Its place in the audit trail.
    public let sequence: Int64
    /// What happened, such as `session.started` or `device.registered`.
    public let type: String
    /// The device involved.
    public let deviceId: String?
    /// The session involved.
    public let sessionId: String?
    /// The client's network, coarsened.
    public let ipRange: String?
    /// What else the event records.
    public let details: [String: String]
    /// When it happened.
    public let createdAt: Date
}
