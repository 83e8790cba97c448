import Vapor

/// Counts each request against a per-network budget before the route does any work.
struct ClientRateLimit: AsyncMiddleware {
    let budget: RateLimitBudget

    init(_ budget: RateLimitBudget) {
        self.budget = budget
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try request.hale.requestLimits.admit(budget, from: request.clientNetwork)
        return try await next.respond(to: request)
    }
}
