import Vapor

/// Counts each request against a per-network budget before the route does any work.
struct ClientRateLimit: AsyncMiddleware {
    let budget: RateLimitBudget
    let limits: RequestLimits

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try limits.admit(budget, from: request.clientNetwork)
        return try await next.respond(to: request)
    }
}

extension RequestLimits {
    /// The middleware that counts each request against `budget` for the network it comes from.
    func perClient(_ budget: RateLimitBudget) -> ClientRateLimit {
        ClientRateLimit(budget: budget, limits: self)
    }

    /// The middleware that counts each request against `budget` for its signed-in account.
    func perAccount(_ budget: RateLimitBudget) -> AccountRateLimit {
        AccountRateLimit(budget: budget, limits: self)
    }
}
