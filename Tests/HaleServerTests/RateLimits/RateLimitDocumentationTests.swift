import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// The budgets as configured and documented: every budget has its key, and the OpenAPI document's 429s are exactly
/// the routes that answer 429.
@Suite("Rate limits: configuration and documentation")
struct RateLimitDocumentationTests {
    /// Routes that would end the token the probe uses; none is budgeted.
    private static let ending: Set<String> = [
        "POST /api/v1/auth/logout", "POST /api/v1/auth/logout-all", "DELETE /api/v1/account",
    ]

    @Test("every budget has a configuration key whose default is a valid budget, and every rateLimits key a budget")
    func keys() {
        let paths = Set(ConfigKey.all.map(\.path).filter { $0.hasPrefix("rateLimits.") })
        #expect(paths == Set(RateLimitBudget.allCases.map(\.configPath)))
        for budget in RateLimitBudget.allCases {
            #expect(ConfigKey.named(budget.configPath).flatMap { RateLimit($0.defaultValue) } != nil)
        }
    }

    @Test("the routes that answer 429 are exactly those whose operation documents it, with Retry-After")
    func openAPIDocumentsEveryLimitedRoute() async throws {
        var settings = Dictionary(uniqueKeysWithValues: RateLimitBudget.allCases.map { ($0.configPath, "1/1m") })
        settings["appAttest.developmentMode"] = "true"
        try await withHale(settings: settings) { app in
            let (_, bearer) = try await makeAccount(app)
            let documented = try Self.documentedTooManyRequests(
                try await app.testing().sendRequest(.GET, "/openapi.json").json())
            let tester = try app.testing(method: .running(hostname: "127.0.0.1", port: try freeLoopbackPort()))
            var limited: Set<String> = []
            // The account page's own routes are not in the OpenAPI document (AccountPageRateLimitTests).
            for route in app.routes.all where route.path.first?.description != "account" {
                let (name, path) = Self.probe(route)
                guard !Self.ending.contains(name) else { continue }
                for _ in 0..<2 {
                    let response = try await tester.sendRequest(
                        route.method, path, headers: .json(bearer: bearer),
                        body: route.method == .GET ? nil : .json("{}"))
                    if response.status == .tooManyRequests { limited.insert(name) }
                }
            }
            #expect(limited == documented)
            #expect(limited.count == 34)
        }
    }

    /// `POST /api/v1/confirmations/{confirmationID}/answer` and a path to send it to, with random parameters.
    private static func probe(_ route: Route) -> (name: String, path: String) {
        var template: [String] = []
        var path: [String] = []
        for component in route.path {
            if case .parameter(let name) = component {
                template.append("{\(name)}")
                path.append(UUID().uuidString.lowercased())
            } else {
                template.append(component.description)
                path.append(component.description)
            }
        }
        return ("\(route.method.rawValue) /\(template.joined(separator: "/"))", "/" + path.joined(separator: "/"))
    }

    /// The operations documenting a 429, each checked to send `Retry-After`.
    private static func documentedTooManyRequests(_ document: [String: Any]) throws -> Set<String> {
        var names: Set<String> = []
        for (path, operations) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for (method, operation) in operations {
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any]
                guard let tooMany = responses?["429"] as? [String: Any] else { continue }
                names.insert("\(method.uppercased()) \(path)")
                let header = (tooMany["headers"] as? [String: Any])?["Retry-After"] as? [String: Any]
                #expect(header?["$ref"] as? String == "#/components/headers/RetryAfter", "\(method) \(path)")
            }
        }
        return names
    }
}
