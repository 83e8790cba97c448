import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Requests through a real socket from 127.0.0.1, which the test configures as a trusted proxy, each on behalf of
/// the client its `X-Forwarded-For` names: many clients from one test.
struct ProxiedClient {
    /// `server.trustedProxies` for a test that sends through this client.
    static let settings = ["server.trustedProxies": "127.0.0.1"]

    private let tester: any TestingApplicationTester

    init(_ app: Application) throws {
        tester = try app.testing(method: .running(hostname: "127.0.0.1", port: try freeLoopbackPort()))
    }

    /// Sends `body` as JSON, forwarded for `client` when one is named.
    func send(
        _ method: HTTPMethod, _ path: String, from client: String? = nil, bearer: String? = nil, body: String = "{}"
    ) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders.json(bearer: bearer)
        if let client { headers.add(name: .xForwardedFor, value: client) }
        return try await tester.sendRequest(
            method, path, headers: headers, body: method == .GET ? nil : ByteBuffer(string: body))
    }

    /// Sends a JSON object.
    func post(_ path: String, _ body: [String: any Sendable], from client: String) async throws -> TestingHTTPResponse {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await send(.POST, path, from: client, body: String(decoding: data, as: UTF8.self))
    }
}

extension TestingHTTPResponse {
    /// Expects a 429 `RATE_LIMITED` in the core shape with this `Retry-After`.
    func expectRateLimited(retryAfter: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(status == .tooManyRequests, "\(body.string)", sourceLocation: sourceLocation)
        #expect(headers.first(name: .retryAfter) == retryAfter, sourceLocation: sourceLocation)
        let error = try coreError()
        #expect(error.success == false, sourceLocation: sourceLocation)
        #expect(error.error.code == "RATE_LIMITED", sourceLocation: sourceLocation)
        let wait = retryAfter == "1" ? "1 second" : "\(retryAfter) seconds"
        #expect(error.error.message == "Too many requests. Try again in \(wait).", sourceLocation: sourceLocation)
    }
}
