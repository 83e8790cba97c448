/// Why a social token was not accepted.
///
/// The strings are short, stable reasons for logs and tests. They never contain the token, a signature, a claim value
/// or an email address, so they are safe to log; a surface answering a client should not echo them.
public enum SocialTokenError: Error, Sendable, Equatable {
    /// The token is not acceptable: malformed, badly signed, expired, for another audience or issuer, a nonce that
    /// does not match, or refused by the Graph API. The server answers 401 `OAUTH_INVALID_TOKEN`.
    case invalidToken(String)
    /// The provider's key set or the Graph API could not be reached, answered 5xx or answered something unreadable.
    /// The server answers 502 or 503 `OAUTH_ERROR`.
    case providerUnavailable(String)
    /// The provider has no client ids, audiences or app id configured.
    case notConfigured(SocialProvider)
}
