import Foundation
import Logging
import SocialTokens

/// Turns a bearer token — an access token, a personal access token, or on seed 000's routes a Firebase ID token —
/// into the identity it proves.
public struct BearerTokenVerifier: Sendable {
    let accessTokens: AccessTokens
    let personalAccessTokens: PersonalAccessTokens
    let sessions: Sessions
    /// Firebase's users, when `firebase.projectId` is set.
    let firebase: FirebaseAccounts?
    let clock: HaleClock

    /// The identity the token proves; throws `HaleError` `TOKEN_INVALID` or `TOKEN_EXPIRED`.
    ///
    /// An access token is accepted only while its session is active — not revoked, not expired, and the same
    /// account's — so logout takes effect at once rather than when the token expires. With
    /// `acceptingFirebaseIDTokens` and Firebase configured, a token that is neither a personal access token nor
    /// headed as an access token (ES256, `at+jwt`), or that is longer than any Firebase ID token, is verified as a
    /// Firebase ID token.
    public func verify(_ token: String, acceptingFirebaseIDTokens: Bool = false, logger: Logger? = nil) async throws
        -> AuthenticatedAccount
    {
        if PersonalAccessTokens.looksLikePersonalAccessToken(token) {
            let verified = try await personalAccessTokens.verify(token)
            return AuthenticatedAccount(
                accountId: verified.accountId, sessionId: nil, deviceId: verified.deviceId,
                signInMethod: "personal_access_token",
                credential: .personalAccessToken(id: verified.id), expiresAt: nil, signedInAt: verified.signedInAt)
        }
        // A token too long to be Firebase's is refused as one before any part of it is decoded.
        if acceptingFirebaseIDTokens, let firebase,
            token.utf8.count > SocialTokenVerifier.maximumFirebaseIDTokenLength || AccessTokens.keyID(of: token) == nil
        {
            return try await firebase.authenticate(idToken: token, logger: logger ?? Logger(label: "hale.firebase"))
        }
        return try await accessToken(token).identity
    }

    /// An access token's identity and claims, while its session is active.
    func accessToken(_ token: String) async throws -> (identity: AuthenticatedAccount, claims: AccessTokenClaims) {
        let claims = try await accessTokens.verify(token)
        guard let account = AccountID(claims.sub.value), let sessionID = SessionID(claims.sid),
            let session = try await sessions.find(sessionID), session.accountId == account,
            session.isActive(at: clock.now())
        else {
            throw HaleError.invalidToken
        }
        let device = try claims.deviceId.map { text in
            guard let device = DeviceID(text) else { throw HaleError.invalidToken }
            return device
        }
        let identity = AuthenticatedAccount(
            accountId: account, sessionId: sessionID, deviceId: device, signInMethod: claims.signInMethod,
            credential: .accessToken(jti: claims.jti.value), expiresAt: claims.exp.value,
            signedInAt: Self.provedAt(session, signInMethod: claims.signInMethod))
        return (identity, claims)
    }

    /// When the person last proved themselves on the session. A handed-off token's holder (a web view) did not sign
    /// in itself: never. An email code proves less than a credential: only a step-up on the session counts.
    static func provedAt(_ session: Session, signInMethod: String) -> Date? {
        switch signInMethod {
        case SessionHandoffs.signInMethod: nil
        case EmailSignIn.signInMethod: session.steppedUpAt
        default: session.provedAt
        }
    }
}
