import Vapor

/// The signed-in account's personal access tokens: list them, revoke one. Every query is the account's own: another
/// account's token is a 404, never a revocation.
struct PersonalAccessTokenRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let tokens = routes.grouped("api", "v1", "account", "tokens").grouped(BearerAuthMiddleware())
        tokens.get(use: list)
        tokens.delete(":tokenId", use: revoke)
    }

    func list(_ request: Request) async throws -> PersonalAccessTokenList {
        let identity = try request.account
        let limit = try request.query.get(Int?.self, at: "limit") ?? 100
        let tokens = try await request.hale.personalAccessTokens.active(of: identity.accountId, limit: limit)
        return PersonalAccessTokenList(
            tokens: tokens.map { token in
                PersonalAccessTokenResponse(token, current: identity.credential == .personalAccessToken(id: token.id))
            })
    }

    func revoke(_ request: Request) async throws -> SuccessResponse {
        let identity = try request.account
        guard let id = request.parameters.get("tokenId").flatMap(Int64.init), id > 0,
            try await request.hale.personalAccessTokens.revoke(
                id, of: identity.accountId, by: .owner, session: identity.sessionId)
        else {
            throw Self.notFound
        }
        return SuccessResponse()
    }

    static let notFound = HaleError(
        .resourceNotFound, status: 404, message: "This account has no unrevoked personal access token with this id.")
}
