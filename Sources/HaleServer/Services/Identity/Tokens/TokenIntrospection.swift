import Foundation

/// Token introspection (RFC 7662) for a resource server that holds a Hale token and asks whether it is active now:
/// access tokens (signature, issuer, lifetime, and their session still open) and personal access tokens (not
/// revoked, not expired). Anything else, refresh tokens and Firebase ID tokens included, is inactive.
public struct TokenIntrospection: Sendable {
    /// What is known of an active token.
    public struct Active: Sendable, Equatable {
        /// Which kind of token it is: `access_token` or `personal_access_token`.
        public let kind: String
        /// The account it proves.
        public let account: AccountID
        /// The issuer it was issued under.
        public let issuer: String
        /// The access token's `aud`; none for a personal access token.
        public let audiences: [String]
        /// When it was issued.
        public let issuedAt: Date
        /// When it stops working, if it does.
        public let expiresAt: Date?
        /// The access token's `jti`, or the personal access token's id.
        public let tokenID: String
        /// The access token's session.
        public let session: SessionID?
        /// The device it was issued to, when known.
        public let device: DeviceID?
        /// How the session signed in (an access token's `sign_in_method`).
        public let signInMethod: String?
        /// For an access token of a session bound to an attested app instance, the key's thumbprint (`cnf.jkt`).
        public var confirmationKey: String? = nil
    }

    /// The longest text looked at: far longer than any Hale token.
    static let maximumTokenLength = 4_096

    let bearerTokens: BearerTokenVerifier

    /// What `token` proves while it is active; `nil` when it is not, whatever the reason, so the answer tells a
    /// caller nothing more than "inactive" (RFC 7662 §2.2).
    public func introspect(_ token: String) async throws -> Active? {
        guard !token.isEmpty, token.utf8.count <= Self.maximumTokenLength else { return nil }
        do {
            return try await PersonalAccessTokens.looksLikePersonalAccessToken(token)
                ? personalAccessToken(token) : accessToken(token)
        } catch let refused as HaleError where refused.kind == .unauthenticated {
            return nil
        }
    }

    private func accessToken(_ token: String) async throws -> Active {
        let (identity, claims) = try await bearerTokens.accessToken(token)
        return Active(
            kind: "access_token", account: identity.accountId, issuer: claims.iss.value,
            audiences: claims.aud?.value ?? [], issuedAt: claims.iat.value, expiresAt: claims.exp.value,
            tokenID: claims.jti.value, session: identity.sessionId, device: identity.deviceId,
            signInMethod: identity.signInMethod, confirmationKey: claims.cnf?.jkt)
    }

    private func personalAccessToken(_ token: String) async throws -> Active {
        let verified = try await bearerTokens.personalAccessTokens.verify(token)
        return Active(
            kind: "personal_access_token", account: verified.accountId, issuer: bearerTokens.accessTokens.issuer,
            audiences: [], issuedAt: verified.createdAt ?? .distantPast, expiresAt: verified.expiresAt,
            tokenID: String(verified.id), session: nil, device: verified.deviceId, signInMethod: nil)
    }
}
