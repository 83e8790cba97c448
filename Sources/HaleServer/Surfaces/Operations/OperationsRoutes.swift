import ByteEncoding
import Foundation
import Vapor

/// Health, readiness, metrics, the JWK Set and the OpenAPI document.
struct OperationsRoutes: RouteCollection {
    /// What `/readyz` asks: whether the database answers.
    let database: any ReadinessProbe
    /// The access-token keys and the provenance keys, whose public halves `/.well-known/jwks.json` publishes.
    let keySet: @Sendable () async throws -> JSONWebKeySet
    /// The bearer token `/metrics` requires; nil when it is open.
    let metricsBearerToken: String?

    func boot(routes: any RoutesBuilder) throws {
        routes.get("healthz", use: health)
        routes.get("readyz", use: readiness)
        routes.get("metrics", use: metrics)
        routes.get(".well-known", "jwks.json", use: jwks)
        routes.get("openapi.json", use: openAPI)
    }

    struct Status: Content {
        let status: String
    }

    func health(_ request: Request) -> Status {
        Status(status: "ok")
    }

    func readiness(_ request: Request) async -> Response {
        do {
            try await database.ping()
        } catch {
            request.logger.warning("readiness check failed: database unreachable")
            return .json(Status(status: "unavailable"), status: .serviceUnavailable)
        }
        return .json(Status(status: "ready"), status: .ok)
    }

    func metrics(_ request: Request) throws -> Response {
        if let expected = metricsBearerToken {
            guard let presented = request.headers.bearerAuthorization?.token,
                ConstantTime.equals(presented, expected)
            else {
                var refused = HaleError.missingCredentials
                refused.bearerChallenge = #"Bearer realm="hale-metrics""#
                throw refused
            }
        }
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "text", subType: "plain", parameters: ["version": "0.0.4"])
        var text = HaleMetrics.registry.emitToBuffer()
        if let memory = ProcessMemory.current() { text += Array(memory.prometheusText.utf8) }
        return Response(status: .ok, headers: headers, body: .init(data: Data(text)))
    }

    func jwks(_ request: Request) async throws -> Response {
        let response = Response.json(try await keySet(), status: .ok)
        response.headers.replaceOrAdd(
            name: .cacheControl, value: "public, max-age=\(Int(SigningKeyRing.publishedMaxAge))")
        return response
    }

    func openAPI(_ request: Request) throws -> Response {
        var headers = HTTPHeaders()
        headers.contentType = .json
        return Response(status: .ok, headers: headers, body: .init(data: try OpenAPIDocument.json()))
    }
}
