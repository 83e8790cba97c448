/// Turns a bearer token — an access token or a personal access token — into the identity it proves.
public struct BearerTokenVerifier: Sendable {
    let accessTokens: AccessTokens
    let personalAccessTokens: PersonalAccessTokens
    let sessions: Sessions

    /// The identity the token proves; throws `HaleError` `TOKEN_INVALID` or `TOKEN_EXPIRED`.
    ///
    /// An access token is accepted only while its session is active, so logout takes effect at once rather than
    /// when the token expires.
    public func verify(_ token: String) async throws -> AuthenticatedAccount {
        if PersonalAccessTokens.looksLikePersonalAccessToken(token) {
            let verified = try await personalAccessTokens.verify(token)
            return AuthenticatedAccount(
                accountId: verified.accountId, sessionId: nil, deviceId: nil, signInMethod: "personal_access_token",
                credential: .personalAccessToken(id: verified.id))
        }
        let claims = try await accessTokens.verify(token)
        guard let account = AccountID(claims.sub.value) else { throw HaleError.invalidToken }
        let session = try claims.sid.map { try Self.identifier(SessionID.self, $0) }
        if let session {
            guard let stored = try await sessions.find(session), stored.accountId == account,
                stored.revokedAt == nil
            else {
                throw HaleError.invalidToken
            }
        }
        return AuthenticatedAccount(
            accountId: account, sessionId: session,
            deviceId: try claims.deviceId.map { try Self.identifier(DeviceID.self, $0) },
            signInMethod: claims.signInMethod, credential: .accessToken(jti: claims.jti.value))
    }

    private static func identifier<Tag>(_ type: Identifier<Tag>.Type, _ text: String) throws -> Identifier<Tag> {
        guard let identifier = Identifier<Tag>(text) else { throw HaleError.invalidToken }
        return identifier
    }
}
