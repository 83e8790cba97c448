import Vapor

/// `GET /api/v1/account/tokens`: the account's personal access tokens that still work.
struct PersonalAccessTokenList: Content {
    let tokens: [PersonalAccessTokenResponse]
}

/// One token as its owner sees it: never its secret, nor the secret's hash.
struct PersonalAccessTokenResponse: Content {
    let id: Int64
    let name: String
    let createdAt: String
    @Nullable var lastUsedAt: String?
    @Nullable var expiresAt: String?
    /// Whether this token authenticated the request that lists it.
    let current: Bool

    init(_ token: PersonalAccessToken, current: Bool) {
        id = token.id
        name = token.name
        createdAt = ISO8601.string(token.createdAt)
        lastUsedAt = token.lastUsedAt.map(ISO8601.string)
        expiresAt = token.expiresAt.map(ISO8601.string)
        self.current = current
    }
}
