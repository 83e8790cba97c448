import Foundation
import Vapor

/// Seed 001's Health Data API, with its error shape `{statusCode, message, error}`.
struct HealthRoutes: RouteCollection {
    /// The path prefix whose errors use seed 001's shape.
    static let path = "/health"

    func boot(routes: any RoutesBuilder) throws {
        let health = routes.grouped("health").grouped(BearerAuthMiddleware())
        health.get("attestation-nonce", use: nonce)
        health.get("statistics", use: statistics)
        health.get("today", use: today)
    }

    func nonce(_ request: Request) async throws -> NonceResponse {
        try Self.rejectQuery(request, allowing: [])
        let issued = try await request.hale.health.issueNonce(for: try request.account.accountId)
        return NonceResponse(nonce: issued.value, expiresAt: ISO8601.string(issued.challenge.expiresAt))
    }

    func statistics(_ request: Request) async throws -> StatisticsResponse {
        try Self.rejectQuery(request, allowing: ["startDate", "endDate", "period"])
        let account = try request.account.accountId
        let health = request.hale.health
        let result = try await health.statistics(
            of: account, startDate: try Self.query(request, "startDate"), endDate: try Self.query(request, "endDate"),
            period: try Self.query(request, "period"),
            in: try await health.timeZone(of: account, header: request.headers.first(name: "X-Timezone")))
        return StatisticsResponse(result)
    }

    func today(_ request: Request) async throws -> TodayResponse {
        try Self.rejectQuery(request, allowing: [])
        let account = try request.account.accountId
        let health = request.hale.health
        let today = try await health.today(
            of: account, in: try await health.timeZone(of: account, header: request.headers.first(name: "X-Timezone")))
        return TodayResponse(today)
    }

    /// NestJS's whitelist message for a parameter the endpoint does not take.
    private static func rejectQuery(_ request: Request, allowing allowed: Set<String>) throws {
        let names = (request.url.query ?? "").split(separator: "&").compactMap {
            $0.split(separator: "=", maxSplits: 1).first.map { String($0).removingPercentEncoding ?? String($0) }
        }
        if let unknown = names.first(where: { !allowed.contains($0) }) {
            throw HaleError.invalidRequest("property \(unknown) should not exist")
        }
    }

    private static func query(_ request: Request, _ name: String) throws -> String? {
        guard let values = try? request.query.get([String].self, at: name), values.count > 1 else {
            return request.query[String.self, at: name]
        }
        throw HaleError.invalidRequest("\(name) must be given once")
    }
}
