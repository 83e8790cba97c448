import Foundation
import Logging

/// Who a Firebase ID token says is signed in, once it is verified.
public struct VerifiedFirebaseUser: Sendable, Equatable {
    /// The Firebase uid (`sub`), 1 to 128 characters.
    public var uid: String
    /// The email Firebase reported, if any.
    public var email: String?
    /// Whether Firebase vouched for the email.
    public var emailVerified: Bool
    /// When the person signed in to Firebase (`auth_time`).
    public var authenticatedAt: Date
    /// When the ID token expires (`exp`).
    public var expiresAt: Date

    /// A verified user.
    public init(uid: String, email: String?, emailVerified: Bool, authenticatedAt: Date, expiresAt: Date) {
        self.uid = uid
        self.email = email
        self.emailVerified = emailVerified
        self.authenticatedAt = authenticatedAt
        self.expiresAt = expiresAt
    }
}

/// Verifies Firebase ID tokens of the configured project. Throws `HaleError` `TOKEN_EXPIRED` (401) for an expired
/// token, `TOKEN_INVALID` (401) for any other refusal, and `OAUTH_ERROR` (503) when Google's certificates cannot be
/// fetched. Why a token was refused goes to the logger, never to the client.
public protocol FirebaseIDTokenVerifier: Sendable {
    /// The user `token` proves.
    func verifyFirebaseIDToken(_ token: String, logger: Logger) async throws -> VerifiedFirebaseUser
}
