import Foundation

/// Who the provider says signed in.
///
/// `email` is what the provider reported, verified or not; `emailVerified` is true only when the provider asserts it
/// verified that address. Link accounts and trust an address only when `emailVerified` is true.
public struct VerifiedIdentity: Sendable, Equatable {
    /// The provider that vouches for this identity.
    public let provider: SocialProvider
    /// The provider's stable user id: `sub` for Google, Apple, Facebook Limited Login and Firebase (the uid), the
    /// app-scoped user id for a Facebook access token.
    public let subject: String
    /// The email address the provider reported, if any; it may be unverified (see `emailVerified`).
    public let email: String?
    /// Whether the provider asserts it verified `email`: Google's, Apple's and Firebase's `email_verified`; always false for
    /// Facebook, which documents no verification of the addresses it returns. Always false when `email` is nil.
    public let emailVerified: Bool
    /// Whether `email` is an Apple private relay address (`is_private_email`, or an `@privaterelay.appleid.com`
    /// address from any provider).
    public let isPrivateRelayEmail: Bool
    /// The person's display name, when the provider includes one (Apple's identity token never does).
    public let name: String?
    /// The client id the token was issued to (`aud`), for a token; nil for a Facebook access token. Apple's REST API
    /// needs it to exchange and revoke that user's tokens.
    public let audience: String?
    /// When the person signed in to the provider: a Firebase ID token's `auth_time`; nil for other providers.
    public var authenticatedAt: Date? = nil
    /// When the token stops being valid (`exp`): set for a Firebase ID token, which is presented on every request.
    public var expiresAt: Date? = nil

    /// An identity with every field given.
    public init(
        provider: SocialProvider, subject: String, email: String?, emailVerified: Bool, isPrivateRelayEmail: Bool,
        name: String?, audience: String? = nil
    ) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified && email != nil
        self.isPrivateRelayEmail = isPrivateRelayEmail
        self.name = name
        self.audience = audience
    }
}
