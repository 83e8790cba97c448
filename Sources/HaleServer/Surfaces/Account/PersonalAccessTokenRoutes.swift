import Vapor

/// The signed-in account's personal access tokens: list them, revoke one. Every query is the account's own: another
/// account's token is a 404, never a revocation.
struct PersonalAccessTokenRoutes: RouteCollection {
    let personalAccessTokens: PersonalAccessTokens
    let bearerTokens: BearerTokenVerifier

    func boot(routes: any RoutesBuilder) throws {
        let tokens = SignedInRoutes(
            routes.grouped("api", "v1", "account", "tokens"),
            authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        tokens.get(use: list)
        tokens.delete(":tokenId", use: revoke)
    }

    func list(_ request: Request, _ account: AuthenticatedAccount) async throws -> PersonalAccessTokenList {
        let limit = try request.query.get(Int?.self, at: "limit") ?? 100
        let tokens = try await personalAccessTokens.active(of: account.accountId, limit: limit)
        return PersonalAccessTokenList(
            tokens: tokens.map { token in
                PersonalAccessTokenResponse(token, current: account.credential == .personalAccessToken(id: token.id))
            })
    }

    func revoke(_ request: Request, _ account: AuthenticatedAccount) async throws -> SuccessResponse {
        guard let id = request.parameters.get("tokenId").flatMap(Int64.init), id > 0,
            try await personalAccessTokens.revoke(id, of: account.accountId, by: .owner, session: account.sessionId)
        else {
            throw Self.notFound
        }
        return SuccessResponse()
    }

    static let notFound = HaleError(
        .resourceNotFound, .notFound, message: "This account has no unrevoked personal access token with this id.")
}
