import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Every route that does work for anyone, or mints single-use values or verifies proofs for an account, counts
/// against a budget and answers 429 with `Retry-After` in its surface's shape.
@Suite("HTTP: rate limits")
struct RateLimitHTTPTests {
    private static let refresh = #"{"refreshToken": "spent"}"#

    @Test("passkey sign-up and sign-in and handoff redemption share the sign-in budget")
    func signIn() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: ["rateLimits.signInPerIp": "5/1m"]) { app in
            let client = try ProxiedClient(app)
            let paths = [
                "/api/mobile/biometric/register/options", "/api/mobile/biometric/register/verify",
                "/api/mobile/biometric/authenticate/options", "/api/mobile/biometric/authenticate/verify",
                "/api/v1/auth/handoff/redeem",
            ]
            var statuses: [HTTPStatus] = []
            for path in paths { statuses.append(try await client.send(.POST, path).status) }
            #expect(statuses == [.badRequest, .badRequest, .ok, .badRequest, .badRequest])
            time.advance(.seconds(20))
            for path in paths { try await client.send(.POST, path).expectRateLimited(retryAfter: "40") }
        }
    }

    @Test("both refresh routes share the refresh budget")
    func refresh() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: ["rateLimits.refreshPerIp": "2/1m"]) { app in
            let client = try ProxiedClient(app)
            let paths = ["/api/v1/auth/refresh", "/api/v1/auth/biometric/refresh"]
            for path in paths {
                #expect(try await client.send(.POST, path, body: Self.refresh).status == .unauthorized)
            }
            for path in paths {
                try await client.send(.POST, path, body: Self.refresh).expectRateLimited(retryAfter: "60")
            }
        }
    }

    @Test("Apple's server notifications are budgeted per sender and refused in JSON:API")
    func appleNotifications() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: ["rateLimits.appleNotificationsPerIp": "1/1m"]) { app in
            let client = try ProxiedClient(app)
            let path = "/api/v1/auth/oauth/apple/notifications"
            let body = #"{"payload": "not.a.jws"}"#
            #expect(try await client.send(.POST, path, body: body).status == .notFound, "Apple is not configured")
            time.advance(.seconds(59))
            let refused = try await client.send(.POST, path, body: body)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers.first(name: .retryAfter) == "1")
            #expect(refused.headers.contentType == HTTPMediaType(type: "application", subType: "vnd.api+json"))
            let errors = try #require(try refused.json()["errors"] as? [[String: String]])
            #expect(
                errors == [
                    [
                        "status": "429", "code": "Too Many Requests", "title": "Too many requests",
                        "detail": "Too many requests. Try again in 1 second.", "indicator": "RATE_LIMITED",
                    ]
                ])
        }
    }

    @Test("the attested health routes share a per-account budget, refused in seed 001's shape")
    func attestation() async throws {
        let settings = ["rateLimits.attestationPerAccount": "4/1m", "appAttest.developmentMode": "true"]
        let time = TestClock()
        try await withHale(clock: time.clock, settings: settings) { app in
            let (_, bearer) = try await makeAccount(app, email: "one@example.com")
            let (_, other) = try await makeAccount(app, email: "two@example.com")
            let statuses = try await [
                (HTTPMethod.GET, "/health/attestation-nonce"), (.POST, "/health"), (.POST, "/health/attestation-keys"),
                (.POST, "/health/development-attestation"),
            ].asyncMap { request in
                let (method, path) = request
                return try await app.testing().sendRequest(
                    method, path, headers: .json(bearer: bearer), body: method == .GET ? nil : .json("{}")
                ).status
            }
            #expect(statuses == [.ok, .badRequest, .badRequest, .badRequest])
            let refused = try await app.testing().sendRequest(
                .GET, "/health/attestation-nonce", headers: .bearer(bearer))
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers.first(name: .retryAfter) == "60")
            let body = try refused.json()
            #expect(body.keys.sorted() == ["error", "message", "statusCode"])
            #expect(body["statusCode"] as? Int == 429)
            #expect(body["error"] as? String == "Too Many Requests")
            #expect(body["message"] as? String == "Too many requests. Try again in 60 seconds.")
            let otherAccount = try await app.testing().sendRequest(
                .GET, "/health/attestation-nonce", headers: .bearer(other))
            #expect(otherAccount.status == .ok)
        }
    }

    @Test("answers to confirmation requests are budgeted per account")
    func confirmationAnswers() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: ["rateLimits.confirmationAnswersPerAccount": "1/1m"]) {
            app in
            let (_, bearer) = try await makeAccount(app)
            let path = "/api/v1/confirmations/\(UUID().uuidString.lowercased())/answer"
            let body = ByteBuffer.json(#"{"decision": "approve", "signature": "AAAA"}"#)
            let first = try await app.testing().sendRequest(.POST, path, headers: .json(bearer: bearer), body: body)
            #expect(first.status == .notFound)
            try await app.testing().sendRequest(.POST, path, headers: .json(bearer: bearer), body: body)
                .expectRateLimited(retryAfter: "60")
        }
    }

    @Test("behind a trusted proxy each forwarded client has its own budget")
    func forwardedClientsApart() async throws {
        var settings = ProxiedClient.settings
        settings["rateLimits.refreshPerIp"] = "1/1m"
        let time = TestClock()
        try await withHale(clock: time.clock, settings: settings) { app in
            let client = try ProxiedClient(app)
            let path = "/api/v1/auth/refresh"
            #expect(
                try await client.send(.POST, path, from: "198.51.100.7", body: Self.refresh).status == .unauthorized)
            try await client.send(.POST, path, from: "198.51.100.7", body: Self.refresh)
                .expectRateLimited(retryAfter: "60")
            #expect(try await client.send(.POST, path, from: "203.0.113.9", body: Self.refresh).status == .unauthorized)
        }
    }

    @Test("without trusted proxies a forged X-Forwarded-For buys no new budget")
    func forgedForwardedFor() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: ["rateLimits.refreshPerIp": "1/1m"]) { app in
            let client = try ProxiedClient(app)
            let path = "/api/v1/auth/refresh"
            #expect(
                try await client.send(.POST, path, from: "198.51.100.7", body: Self.refresh).status == .unauthorized)
            try await client.send(.POST, path, from: "203.0.113.9", body: Self.refresh)
                .expectRateLimited(retryAfter: "60")
        }
    }

    @Test("IPv6 clients are counted per /64")
    func ipv6PerSlash64() async throws {
        var settings = ProxiedClient.settings
        settings["rateLimits.refreshPerIp"] = "1/1m"
        let time = TestClock()
        try await withHale(clock: time.clock, settings: settings) { app in
            let client = try ProxiedClient(app)
            let path = "/api/v1/auth/refresh"
            #expect(
                try await client.send(.POST, path, from: "2001:db8:1:2::1", body: Self.refresh).status == .unauthorized)
            try await client.send(.POST, path, from: "2001:db8:1:2:ffff:ffff:ffff:ffff", body: Self.refresh)
                .expectRateLimited(retryAfter: "60")
            #expect(
                try await client.send(.POST, path, from: "2001:db8:1:3::1", body: Self.refresh).status == .unauthorized)
        }
    }

    @Test("a fingerprint's challenge budget is per client address: a stranger cannot spend its owner's")
    func fingerprintBudgetPerClient() async throws {
        var settings = ProxiedClient.settings
        settings["rateLimits.deviceKeysPerFingerprint"] = "2/1m"
        let time = TestClock()
        try await withHale(clock: time.clock, settings: settings) { app in
            let client = try ProxiedClient(app)
            let path = "/api/v1/auth/biometric/challenge"
            let body = ["deviceFingerprint": "iOS-17.4-iPhone-FaceID-known"]
            // No device is registered under it: the answer is DEVICE_NOT_REGISTERED until the budget is spent.
            for _ in 0..<2 { #expect(try await client.post(path, body, from: "198.51.100.7").status == .notFound) }
            try await client.post(path, body, from: "198.51.100.7").expectRateLimited(retryAfter: "60")
            #expect(try await client.post(path, body, from: "203.0.113.9").status == .notFound)
        }
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
