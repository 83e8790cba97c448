import Vapor

/// Counts each request against a per-account budget before the route does any work. It goes after
/// `BearerAuthMiddleware`, which sets the account.
struct AccountRateLimit: AsyncMiddleware {
    let budget: RateLimitBudget
    let limits: RequestLimits

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try limits.admit(budget, account: try request.account.accountId)
        return try await next.respond(to: request)
    }
}
