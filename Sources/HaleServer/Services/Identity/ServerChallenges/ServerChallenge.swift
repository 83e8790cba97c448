import Foundation

/// A single-use value the server handed out: what it is for, who it is bound to, and until when it can be used.
public struct ServerChallenge: Codable, Sendable, Equatable {
    /// The challenge's identifier.
    public var id: ServerChallengeID
    /// What the challenge is for, such as `passkey_registration`; a value issued for one kind never consumes another.
    public var kind: String
    /// The SHA-256 of the value; the value itself is never stored.
    public var valueHash: String
    /// The account it is bound to, if any.
    public var accountId: AccountID?
    /// The device it is bound to, if any.
    public var deviceId: DeviceID?
    /// The session it is bound to, if any.
    public var sessionId: SessionID?
    /// Text the issuer needs back at consumption, such as serialised options; never a secret.
    public var context: String?
    /// When it was issued.
    public var createdAt: Date
    /// When it stops being usable.
    public var expiresAt: Date
    /// When it was consumed, if it was.
    public var consumedAt: Date?
}
