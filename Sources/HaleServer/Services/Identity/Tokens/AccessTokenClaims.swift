import JWTKit

/// The claims of a Hale access token.
public struct AccessTokenClaims: JWTPayload, Equatable {
    /// Issuer: the configured `tokens.issuer`.
    public var iss: IssuerClaim
    /// Audience: `tokens.audiences`, when any are configured.
    public var aud: AudienceClaim?
    /// Subject: the account identifier.
    public var sub: SubjectClaim
    /// Issued at.
    public var iat: IssuedAtClaim
    /// Expires at.
    public var exp: ExpirationClaim
    /// A unique identifier for this token.
    public var jti: IDClaim
    /// The session (refresh-token family) the token belongs to.
    public var sid: String
    /// The device the token was issued to, if known.
    public var deviceId: String?
    /// How the account signed in, such as `passkey`.
    public var signInMethod: String
    /// For a session bound to an attested app instance, the key it is bound to (RFC 7800): `{"jkt": thumbprint}`.
    public var cnf: Confirmation? = nil

    /// A confirmation claim naming a key by its JWK SHA-256 thumbprint, as DPoP's (RFC 9449) does.
    public struct Confirmation: Codable, Sendable, Equatable {
        /// The key's RFC 7638 thumbprint, base64url.
        public var jkt: String
    }

    enum CodingKeys: String, CodingKey {
        case iss, aud, sub, iat, exp, jti, sid, cnf
        case deviceId = "device_id"
        case signInMethod = "sign_in_method"
    }

    /// Time-based checks are made by `AccessTokens` with its injected clock, after the signature is verified.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
