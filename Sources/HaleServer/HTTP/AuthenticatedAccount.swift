import Foundation
import Vapor

/// The identity a request proved with its bearer token. Set once by `BearerAuthMiddleware`, read from `req.auth`.
public struct AuthenticatedAccount: Authenticatable, Sendable, Equatable {
    /// Which kind of credential the request presented.
    public enum Credential: Sendable, Equatable {
        /// A signed access token, with its `jti`.
        case accessToken(jti: String)
        /// A personal access token, with its identifier.
        case personalAccessToken(id: Int64)
        /// A Firebase ID token (seed 000's routes, when Firebase is configured), with its uid.
        case firebaseIDToken(uid: String)
        /// The account page's session cookie.
        case accountPage
    }

    /// The account.
    public let accountId: AccountID
    /// The session, when the credential is an access token of a session.
    public let sessionId: SessionID?
    /// The device, when known.
    public let deviceId: DeviceID?
    /// How the account signed in.
    public let signInMethod: String
    /// The credential presented.
    public let credential: Credential
    /// When the presented access token or Firebase ID token expires; `nil` for personal access tokens.
    public let expiresAt: Date?
    /// When the sign-in behind the credential happened: its session's start for an access token (a refresh does
    /// not move it), its creation for a social sign-in's personal access token, the `auth_time` of a Firebase ID
    /// token; `nil` for a handed-off access token and for a token an operator or a tool made. `FreshSignIn` reads it.
    public let signedInAt: Date?

    /// Whether the credential is a recovery session's, which may only enrol one credential (`RecoveryCodes`): its
    /// access token, or the account page's cookie of it.
    public var isRecovery: Bool {
        switch credential {
        case .accessToken, .accountPage: signInMethod == RecoveryCodes.signInMethod
        case .personalAccessToken, .firebaseIDToken: false
        }
    }
}

extension Request {
    /// The authenticated identity; throws the 401 `UNAUTHORIZED` error on a route that did not authenticate.
    public var account: AuthenticatedAccount {
        get throws {
            guard let account = auth.get(AuthenticatedAccount.self) else { throw HaleError.missingCredentials }
            return account
        }
    }
}
