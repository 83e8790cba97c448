import Foundation
import Logging

/// Apple's REST API as Hale uses it: exchanging an app's authorization code for a refresh token, and revoking it
/// when the account is deleted, as the App Store requires.
public protocol AppleAccountAPI: Sendable {
    /// Exchanges an authorization code for Apple's refresh token and the subject it belongs to. Throws
    /// `OAUTH_INVALID_TOKEN` for a code Apple refuses, `OAUTH_ERROR` when Apple cannot be asked.
    func exchange(authorizationCode: String, clientID: String, logger: Logger) async throws
        -> (refreshToken: String, subject: String)
    /// Revokes a refresh token. Throws `AppleTokenRefused` when Apple does not know the token (nothing to revoke),
    /// anything else when Apple could not be asked, so the caller retries.
    func revoke(refreshToken: String, clientID: String) async throws
}

/// Apple answered that it does not know the token, so it cannot be, and need not be, revoked.
public struct AppleTokenRefused: Error, Sendable {}

/// A verified Sign in with Apple server-to-server notification.
public struct AppleAccountNotification: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable {
        case emailDisabled = "email-disabled"
        case emailEnabled = "email-enabled"
        case consentRevoked = "consent-revoked"
        case accountDelete = "account-delete"
    }

    /// What happened.
    public var kind: Kind
    /// The Apple user's subject.
    public var subject: String
    /// The client id the notification is for.
    public var audience: String

    /// Creates a notification.
    public init(kind: Kind, subject: String, audience: String) {
        self.kind = kind
        self.subject = subject
        self.audience = audience
    }
}

/// Verifies the signed payload Apple posts to the notification endpoint. Throws `OAUTH_INVALID_TOKEN` for a payload
/// that does not verify.
public protocol AppleNotificationVerifier: Sendable {
    /// The notification in `payload`, once its signature and claims hold; nil for a verified event of a kind Hale
    /// does not act on, which is acknowledged so that Apple stops sending it.
    func verifyNotification(_ payload: String, logger: Logger) async throws -> AppleAccountNotification?
}
