import Foundation

/// What a sign-in or refresh returns: an access token and the refresh token that renews it.
public struct TokenPair: Sendable {
    /// The session the tokens belong to.
    public let sessionId: SessionID
    /// The signed access token.
    public let accessToken: String
    /// When the access token expires.
    public let accessTokenExpiresAt: Date
    /// The opaque refresh token; shown once, stored only as its hash.
    public let refreshToken: String
    /// When the refresh token expires.
    public let refreshTokenExpiresAt: Date
    /// With `tokens.bindToAttestation` on, the nonce the next refresh's attestation is made over; nil when off.
    public var attestationNonce: String? = nil
}
