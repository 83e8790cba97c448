import Foundation

/// A provider's account that signs in to a Hale account: `(provider, subject)` is unique.
public struct SocialIdentity: Codable, Sendable, Equatable {
    /// Hale's identifier for the link.
    public var id: UUID
    /// The account it signs in to.
    public var accountId: AccountID
    /// `google`, `apple` or `facebook`.
    public var provider: String
    /// The provider's stable user id (`sub`, or Facebook's user id).
    public var subject: String
    /// The email the provider last reported, if any.
    public var email: String?
    /// Whether the provider vouched for that email.
    public var emailVerified: Bool
    /// Whether it is an Apple private relay address.
    public var privateRelayEmail: Bool
    /// Whether the person turned off forwarding to their Apple private relay address.
    public var relayEmailDisabled: Bool = false
    /// The client id (Apple: bundle or services id) the provider issued the token to.
    public var clientId: String?
    /// Apple's refresh token, sealed, when the app sent an authorization code; revoked when the account is deleted.
    public var refreshTokenSealed: String?
    /// When it was linked.
    public var createdAt: Date
    /// When it last signed in.
    public var lastSignInAt: Date
}
