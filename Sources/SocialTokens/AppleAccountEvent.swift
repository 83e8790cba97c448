import Foundation

/// One Sign in with Apple server-to-server notification event.
public struct AppleAccountEvent: Sendable, Equatable {
    /// What changed, as the event's `type` names it ("Processing changes for Sign in with Apple accounts").
    public enum Kind: String, Sendable, CaseIterable {
        /// The person stopped forwarding mail from their private relay address to their own.
        case emailDisabled = "email-disabled"
        /// The person resumed forwarding mail from their private relay address.
        case emailEnabled = "email-enabled"
        /// The person stopped using Sign in with Apple with this app: their tokens are no longer valid.
        case consentRevoked = "consent-revoked"
        /// The person asked Apple to delete their Apple Account. Apple's documentation has spelled the type both
        /// `account-delete` and `account-deleted`; both are read as this kind.
        case accountDelete = "account-delete"

        /// The kind an event `type` names; nil for a type Apple does not document.
        init?(appleType: String) {
            if appleType == "account-deleted" {
                self = .accountDelete
            } else {
                self.init(rawValue: appleType)
            }
        }
    }

    /// What changed.
    public let kind: Kind
    /// The person's Apple user id: the `sub` of their identity tokens.
    public let subject: String
    /// The address the email events are about; Apple may send it with other events too.
    public let email: String?
    /// Whether `email` is a private relay address (`is_private_email`); false when Apple does not say.
    public let isPrivateEmail: Bool
    /// When the change happened (`event_time`).
    public let eventTime: Date
    /// The client id the notification is for: the app's primary App ID, one of the configured Apple audiences.
    public let audience: String
    /// The JWT's `jti`, when present, so a server can ignore a replay.
    public let id: String?

    /// An event with every field given.
    public init(
        kind: Kind, subject: String, email: String?, isPrivateEmail: Bool, eventTime: Date, audience: String,
        id: String?
    ) {
        self.kind = kind
        self.subject = subject
        self.email = email
        self.isPrivateEmail = isPrivateEmail
        self.eventTime = eventTime
        self.audience = audience
        self.id = id
    }
}
