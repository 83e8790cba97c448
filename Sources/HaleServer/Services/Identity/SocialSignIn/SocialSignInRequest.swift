import Foundation

/// A role an account signs up with through social sign-in (seed 003). An account's role never changes by signing in.
public enum SocialRole: String, Sendable, CaseIterable {
    case client, cleaner
}

/// A validated social sign-in: the provider's token and what the app sent with it.
public struct SocialSignInRequest: Sendable, Equatable {
    /// `google`, `apple` or `facebook`.
    public var provider: String
    /// The provider's token: an ID token, an identity token, a Facebook access token or a Limited Login token.
    public var token: String
    /// The nonce the app put in its sign-in request, when it used one (Apple, Facebook Limited Login).
    public var nonce: String?
    /// Apple only: the authorization code that comes with the identity token, exchanged for the refresh token Hale
    /// revokes when the account is deleted.
    public var authorizationCode: String?
    /// The role to sign up with; an existing account must already have it.
    public var role: SocialRole
    /// Required for cleaners, absent for clients.
    public var cleaner: CleanerProfile?
    /// Service ids, from the `previousServices` relationship.
    public var previousServices: [Int64]
    /// Service ids, from the `preferredServices` relationship.
    public var preferredServices: [Int64]
    /// Firebase registration tokens to push to.
    public var deviceTokens: [String]
    /// The installation the app named in `X-Installation-Id`, checked; its device is the one the token belongs to.
    public var installation: String? = nil
}
