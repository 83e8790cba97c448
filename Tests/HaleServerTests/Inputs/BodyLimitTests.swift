import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Each route reads at most its own limit of body, and the 413 says what that limit is, in the route's error shape.
/// Bodies go through a real socket: in memory, Vapor hands the route a body that is already collected.
@Suite("HTTP: body limits per route")
struct BodyLimitTests {
    struct Route: Sendable, CustomTestStringConvertible {
        let method: HTTPMethod
        let path: String
        let limit: Int
        let signedIn: Bool
        var testDescription: String { "\(method) \(path)" }
    }

    static let small = 4096
    static let routes: [Route] = [
        Route(method: .POST, path: "/api/v1/auth/refresh", limit: small, signedIn: false),
        Route(method: .POST, path: "/api/v1/auth/biometric/refresh", limit: small, signedIn: false),
        Route(method: .POST, path: "/api/v1/auth/handoff/redeem", limit: small, signedIn: false),
        Route(method: .POST, path: "/api/v1/auth/biometric/challenge", limit: small, signedIn: false),
        Route(method: .POST, path: "/api/v1/auth/biometric/verify", limit: small, signedIn: false),
        Route(method: .POST, path: "/api/v1/devices/register/challenge", limit: 16_384, signedIn: true),
        Route(method: .POST, path: "/api/v1/devices/register/verify", limit: small, signedIn: true),
        Route(method: .PUT, path: "/api/v1/devices/push-token", limit: small, signedIn: true),
        Route(method: .PATCH, path: "/api/v1/devices/\(UUID())", limit: small, signedIn: true),
        Route(method: .PATCH, path: "/api/mobile/biometric/passkeys/\(UUID())", limit: small, signedIn: true),
        Route(method: .POST, path: "/api/mobile/biometric/register/options", limit: 16_384, signedIn: false),
        Route(method: .POST, path: "/api/mobile/biometric/register/verify", limit: 65_536, signedIn: false),
        Route(method: .POST, path: "/api/mobile/biometric/authenticate/options", limit: small, signedIn: false),
        Route(method: .POST, path: "/api/mobile/biometric/authenticate/verify", limit: 65_536, signedIn: false),
        Route(method: .POST, path: "/api/v1/health/consent", limit: small, signedIn: true),
        Route(method: .POST, path: "/api/mobile/health/consent", limit: small, signedIn: true),
        Route(method: .POST, path: "/api/v1/health/connections", limit: small, signedIn: true),
        Route(method: .POST, path: "/api/mobile/health/sync", limit: small, signedIn: true),
        Route(method: .POST, path: "/api/v1/challenges", limit: small, signedIn: true),
        Route(method: .POST, path: "/api/v1/challenges/\(UUID())/join", limit: small, signedIn: true),
        Route(method: .POST, path: "/api/v1/challenges/\(UUID())/leave", limit: small, signedIn: true),
        Route(method: .POST, path: "/api/v1/confirmations/\(UUID())/answer", limit: small, signedIn: true),
    ]

    /// A JSON body of exactly `size` bytes.
    static func body(_ size: Int) -> ByteBuffer {
        ByteBuffer(string: #"{"padding":""# + String(repeating: "x", count: size - 14) + #""}"#)
    }

    static func send(_ app: Application, _ route: Route, size: Int, token: String?) async throws -> TestingHTTPResponse
    {
        try await app.testing(method: .running(port: 0)).sendRequest(
            route.method, route.path, headers: .json(bearer: token), body: body(size))
    }

    @Test("one byte over the limit is a 413 naming it; the limit itself is read", arguments: routes)
    func limit(route: Route) async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let bearer = route.signedIn ? token : nil
            let over = try await Self.send(app, route, size: route.limit + 1, token: bearer)
            #expect(over.status == .payloadTooLarge)
            let error = try over.coreError().error
            #expect(error.code == "PAYLOAD_TOO_LARGE")
            #expect(error.message == "The request body must be at most \(route.limit) bytes on this route.")
            let at = try await Self.send(app, route, size: route.limit, token: bearer)
            #expect(at.status != .payloadTooLarge, "\(at.body.string.prefix(200))")
        }
    }

    @Test("a route without a limit of its own takes server.maxBodySize, exactly")
    func defaultLimit() async throws {
        try await withHale(settings: ["server.maxBodySize": "1KiB"]) { app in
            let (_, token) = try await makeAccount(app)
            let route = Route(method: .POST, path: "/api/v1/auth/logout", limit: 1024, signedIn: true)
            let over = try await Self.send(app, route, size: 1025, token: token)
            #expect(over.status == .payloadTooLarge)
            #expect(
                try over.coreError().error.message == "The request body must be at most 1024 bytes on this route.")
            #expect(try await Self.send(app, route, size: 1024, token: token).status == .ok)
        }
    }

    @Test("seed 001's routes answer their 413 in seed 001's shape")
    func seed001() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let response = try await Self.send(
                app, Route(method: .POST, path: "/health", limit: 65_536, signedIn: true), size: 65_537, token: token)
            #expect(
                try HealthHTTPTests.error(response, .payloadTooLarge)
                    == "The request body must be at most 65536 bytes on this route.")
        }
    }

    @Test("seed 003's sign-in answers its 413 as JSON:API with the PAYLOAD_TOO_LARGE indicator")
    func seed003() async throws {
        try await withHale { app in
            let response = try await Self.send(
                app, Route(method: .POST, path: "/api/v1/auth/oauth/login", limit: 65_536, signedIn: false),
                size: 65_537, token: nil)
            let errors = try SocialSignInHTTPTests.errors(
                of: response, .payloadTooLarge, indicator: "PAYLOAD_TOO_LARGE")
            #expect(errors.first?["detail"] as? String == "The request body must be at most 65536 bytes on this route.")
        }
    }
}
