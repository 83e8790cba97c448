import Vapor

/// Fitness challenges (seed 004's FitChallenge) under `/api/v1/challenges`.
struct FitnessChallengeRoutes: RouteCollection {
    let fitnessChallenges: FitnessChallenges
    let bearerTokens: BearerTokenVerifier

    func boot(routes: any RoutesBuilder) throws {
        let signedIn = SignedInRoutes(
            routes.grouped("api", "v1", "challenges"), authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        signedIn.on(.POST, limit: .small, use: create)
        signedIn.get(use: list)
        signedIn.get(":challengeID", use: show)
        signedIn.on(.POST, ":challengeID", "join", limit: .small, use: join)
        signedIn.on(.POST, ":challengeID", "leave", limit: .small, use: leave)
        signedIn.get(":challengeID", "leaderboard", use: leaderboard)
    }

    func create(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        let body = try request.decodeStrict(CreateFitnessChallengeRequest.self)
        let overview = try await fitnessChallenges.create(try body.draft(), by: account.accountId)
        return Response.json(FitnessChallengeEnvelope(challenge: .init(overview)), status: .created)
    }

    func list(_ request: Request, _ account: AuthenticatedAccount) async throws -> FitnessChallengesResponse {
        let scope = try Self.scope(QueryParameters(request.url.query).values("scope").last)
        let overviews = try await fitnessChallenges.list(scope: scope, for: account.accountId)
        return FitnessChallengesResponse(challenges: overviews.map(FitnessChallengeResponse.init))
    }

    func show(_ request: Request, _ account: AuthenticatedAccount) async throws -> FitnessChallengeEnvelope {
        let overview = try await fitnessChallenges.challenge(Self.id(request), for: account.accountId)
        return FitnessChallengeEnvelope(challenge: .init(overview))
    }

    func join(_ request: Request, _ account: AuthenticatedAccount) async throws -> FitnessChallengeEnvelope {
        let overview = try await fitnessChallenges.join(Self.id(request), account: account.accountId)
        return FitnessChallengeEnvelope(challenge: .init(overview))
    }

    func leave(_ request: Request, _ account: AuthenticatedAccount) async throws -> FitnessChallengeEnvelope {
        let overview = try await fitnessChallenges.leave(Self.id(request), account: account.accountId)
        return FitnessChallengeEnvelope(challenge: .init(overview))
    }

    func leaderboard(
        _ request: Request, _ account: AuthenticatedAccount
    ) async throws -> FitnessChallengeLeaderboardResponse {
        let standings = try await fitnessChallenges.leaderboard(Self.id(request), for: account.accountId)
        return FitnessChallengeLeaderboardResponse(leaderboard: standings.map(FitnessChallengeStandingResponse.init))
    }

    /// `?scope=joined|public`, `joined` when absent; the last one counts when given more than once.
    private static func scope(_ name: String?) throws(InvalidInput) -> FitnessChallenges.Scope {
        guard let name else { return .joined }
        guard let scope = FitnessChallenges.Scope(rawValue: name) else {
            throw InvalidInput("scope", .form("joined or public"))
        }
        return scope
    }

    private static func id(_ request: Request) -> String {
        request.parameters.get("challengeID") ?? ""
    }
}
