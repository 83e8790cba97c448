import ByteEncoding
import Crypto
import Foundation

/// The account page's sessions: a Hale session, started by a passkey ceremony on the page, that the browser holds as
/// an `HttpOnly` cookie instead of a refresh token. The session is like any other: it is listed, belongs to the
/// browser's device, and ends with logout, "sign out everywhere" or its device's revocation.
///
/// The cookie is a 256-bit secret of which only the SHA-256 is stored. The page's CSRF token is derived from it
/// (an HMAC keyed by the cookie), so it needs no storage, changes with every sign-in, and only a script that can
/// read the page's own responses learns it.
public struct AccountPageSessions: Sendable {
    let repository: any SessionRepository
    /// The web origins passkeys are accepted from (`passkeys.origins`): the only ones the page is served to.
    public let origins: Set<String>
    let clock: HaleClock

    /// The sign-in method the page's sessions record.
    public static let signInMethod = "passkey"

    /// Gives a session just started by a sign-in on the page its cookie, and returns the cookie's value.
    public func open(_ session: SessionID) async throws -> String {
        let cookie = OpaqueToken.generate()
        try await repository.setWebTokenHash(OpaqueToken.hash(cookie), of: session)
        return cookie
    }

    /// The identity a page cookie proves while its session is active; `TOKEN_INVALID` otherwise.
    public func identity(cookie: String) async throws -> AuthenticatedAccount {
        try OpaqueToken.checkPresented(cookie, field: "cookie")
        guard let session = try await repository.find(webTokenHash: OpaqueToken.hash(cookie)),
            session.isActive(at: clock.now())
        else {
            throw HaleError.invalidToken
        }
        return AuthenticatedAccount(
            accountId: session.accountId, sessionId: session.id, deviceId: session.deviceId,
            signInMethod: session.signInMethod, credential: .accountPage, expiresAt: session.expiresAt,
            signedInAt: session.provedAt)
    }

    /// The CSRF token of the page signed in with `cookie`.
    public static func csrfToken(for cookie: String) -> String {
        let key = SymmetricKey(data: Data(cookie.utf8))
        return Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Data("hale account page csrf".utf8), using: key))
    }

    /// Whether `presented` is the CSRF token of `cookie`, compared in constant time.
    public static func isCSRFToken(_ presented: String, of cookie: String) -> Bool {
        ConstantTime.equals(presented, csrfToken(for: cookie))
    }
}
