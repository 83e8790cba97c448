import Logging

/// Who a provider's token says signed in, once the token is verified.
public struct VerifiedSocialIdentity: Sendable, Equatable {
    /// The provider's stable user id.
    public var subject: String
    /// The email the provider reported, if any.
    public var email: String?
    /// Whether the provider vouched for the email; only a verified email is ever used to find or link accounts.
    public var emailVerified: Bool
    /// Whether the email is an Apple private relay address.
    public var privateRelayEmail: Bool
    /// The client id the token was issued to (`aud`), when the token names one.
    public var audience: String?

    /// Creates an identity.
    public init(
        subject: String, email: String?, emailVerified: Bool, privateRelayEmail: Bool, audience: String? = nil
    ) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.privateRelayEmail = privateRelayEmail
        self.audience = audience
    }
}

/// Verifies Google, Apple and Facebook tokens. Throws `HaleError` `OAUTH_INVALID_TOKEN` (401) for a token that is
/// not accepted, and `OAUTH_ERROR` when the provider cannot be asked or is not configured.
public protocol SocialIdentityVerifier: Sendable {
    /// Verifies `token` from `provider` (`google`, `apple`, `facebook`), with the nonce the app sent, if any. Why a
    /// token was refused goes to `logger`, never to the client.
    func verify(provider: String, token: String, nonce: String?, logger: Logger) async throws
        -> VerifiedSocialIdentity
}
