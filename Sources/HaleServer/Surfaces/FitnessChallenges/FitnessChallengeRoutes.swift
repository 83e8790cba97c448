import Vapor

/// Fitness challenges (seed 004's FitChallenge) under `/api/v1/challenges`.
struct FitnessChallengeRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let challenges = routes.grouped("api", "v1", "challenges").grouped(BearerAuthMiddleware())
        challenges.on(.POST, limit: .small, use: create)
        challenges.get(use: list)
        challenges.get(":challengeID", use: show)
        challenges.on(.POST, ":challengeID", "join", limit: .small, use: join)
        challenges.on(.POST, ":challengeID", "leave", limit: .small, use: leave)
        challenges.get(":challengeID", "leaderboard", use: leaderboard)
    }

    func create(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(CreateFitnessChallengeRequest.self)
        let overview = try await request.hale.fitnessChallenges.create(
            body.draft, by: try request.account.accountId)
        return Response.json(FitnessChallengeEnvelope(challenge: .init(overview)), status: .created)
    }

    func list(_ request: Request) async throws -> FitnessChallengesResponse {
        let scope = QueryParameters(request.url.query).values("scope").last
        let overviews = try await request.hale.fitnessChallenges.list(
            scope: scope, for: try request.account.accountId)
        return FitnessChallengesResponse(challenges: overviews.map(FitnessChallengeResponse.init))
    }

    func show(_ request: Request) async throws -> FitnessChallengeEnvelope {
        let overview = try await request.hale.fitnessChallenges.challenge(
            Self.id(request), for: try request.account.accountId)
        return FitnessChallengeEnvelope(challenge: .init(overview))
    }

    func join(_ request: Request) async throws -> FitnessChallengeEnvelope {
        let overview = try await request.hale.fitnessChallenges.join(
            Self.id(request), account: try request.account.accountId)
        return FitnessChallengeEnvelope(challenge: .init(overview))
    }

    func leave(_ request: Request) async throws -> FitnessChallengeEnvelope {
        let overview = try await request.hale.fitnessChallenges.leave(
            Self.id(request), account: try request.account.accountId)
        return FitnessChallengeEnvelope(challenge: .init(overview))
    }

    func leaderboard(_ request: Request) async throws -> FitnessChallengeLeaderboardResponse {
        let standings = try await request.hale.fitnessChallenges.leaderboard(
            Self.id(request), for: try request.account.accountId)
        return FitnessChallengeLeaderboardResponse(leaderboard: standings.map(FitnessChallengeStandingResponse.init))
    }

    private static func id(_ request: Request) -> String {
        request.parameters.get("challengeID") ?? ""
    }
}
