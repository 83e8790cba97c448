import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("HTTP: operations routes")
struct HTTPOperationsTests {
    @Test func healthAndReadiness() async throws {
        try await withHale { app in
            try await app.testing().test(.GET, "/healthz") { response in
                let body = try response.json()
                #expect(response.status == .ok)
                #expect(body["status"] as? String == "ok")
            }
            try await app.testing().test(.GET, "/readyz") { response in
                let body = try response.json()
                #expect(response.status == .ok)
                #expect(body["status"] as? String == "ready")
            }
        }
    }

    @Test(
        "readiness is 503 once the database is gone, while liveness still answers",
        .enabled(if: TestDatabase.postgresAdminURL != nil, "taking a database away needs PostgreSQL"))
    func readinessWithoutTheDatabase() async throws {
        let admin = try #require(TestDatabase.postgresAdminURL)
        let (url, dispose) = try await TestDatabase.postgres.provision()
        let name = String(try #require(URLComponents(string: url)).path.dropFirst())
        try await withHale(databaseURL: url) { app in
            #expect(try await app.testing().sendRequest(.GET, "/readyz").status == .ok)
            try await TestDatabase.postgresAdmin(admin, "DROP DATABASE \(name) WITH (FORCE)")
            let response = try await app.testing().sendRequest(.GET, "/readyz")
            #expect(response.status == .serviceUnavailable)
            #expect(try response.json()["status"] as? String == "unavailable")
            #expect(try await app.testing().sendRequest(.GET, "/healthz").status == .ok)
        }
        await dispose()
    }

    @Test func metricsCountRequestsPerRoute() async throws {
        try await withHale { app in
            try await app.testing().test(.GET, "/healthz") { _ in }
            try await app.testing().test(.GET, "/metrics") { response in
                #expect(response.status == .ok)
                #expect(response.headers.contentType?.subType == "plain")
                let text = response.body.string
                #expect(text.contains("http_requests_total"))
                #expect(text.contains(#"path="/healthz""#))
                #expect(text.contains("http_request_duration_seconds"))
                #expect(text.contains("\nprocess_resident_memory_bytes "))
                #expect(text.contains("\nhale_process_peak_resident_memory_bytes "))
            }
        }
    }

    @Test("metrics.bearerToken: /metrics answers only that bearer, compared whole")
    func metricsCanBeRestricted() async throws {
        let token = String(repeating: "m", count: 40)
        try await withHale(settings: ["metrics.bearerToken": token]) { app in
            for headers: HTTPHeaders in [[:], .bearer(token + "x"), .bearer(String(token.dropLast())), .bearer("")] {
                let refused = try await app.testing().sendRequest(.GET, "/metrics", headers: headers)
                #expect(refused.status == .unauthorized)
                #expect(try refused.coreError().error.code == "UNAUTHORIZED")
                #expect(refused.headers.first(name: .wwwAuthenticate) == #"Bearer realm="hale-metrics""#)
            }
            let allowed = try await app.testing().sendRequest(.GET, "/metrics", headers: .bearer(token))
            #expect(allowed.status == .ok)
            #expect(allowed.body.string.contains("http_requests_total"))
        }
        #expect(throws: ConfigError.self) { try HaleConfiguration(ConfigValues(["metrics.bearerToken": "short"])) }
    }

    @Test("every answer, errors included, carries nosniff and no-store; only the JWK Set may be cached")
    func securityHeaders() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let answers = [
                try await app.testing().sendRequest(.GET, "/api/v1/account", headers: .bearer(token)),
                try await app.testing().sendRequest(.GET, "/health/today", headers: .bearer(token)),
                try await app.testing().sendRequest(.GET, "/api/v1/account"),
                try await app.testing().sendRequest(.GET, "/nowhere"),
                try await app.testing().sendRequest(.POST, "/api/v1/auth/refresh", headers: .json(), body: .json("{")),
            ]
            for answer in answers {
                #expect(answer.headers.first(name: "X-Content-Type-Options") == "nosniff")
                #expect(answer.headers.first(name: .cacheControl) == "no-store", "\(answer.status)")
            }
            let keys = try await app.testing().sendRequest(.GET, "/.well-known/jwks.json")
            #expect(keys.headers.first(name: "X-Content-Type-Options") == "nosniff")
            #expect(keys.headers.first(name: .cacheControl)?.hasPrefix("public, max-age=") == true)
        }
    }

    @Test func processMemoryReadsProcStatus() {
        let status = "Name:\thale\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t9\n"
        #expect(ProcessMemory(procStatus: status)?.residentBytes == 104_857_600)
        #expect(ProcessMemory(procStatus: status)?.peakResidentBytes == 209_715_200)
        #expect(ProcessMemory(procStatus: "Name:\thale\n") == nil)
    }

    @Test func jwksServesTheSigningKeyAndTheProvenanceKey() async throws {
        try await withHale { app in
            try await app.hale.prepareSigningKey()
            try await app.testing().test(.GET, "/.well-known/jwks.json") { response in
                #expect(response.status == .ok)
                let set = try JSONDecoder().decode(JSONWebKeySet.self, from: Data(buffer: response.body))
                #expect(set.keys.count == 2)
                #expect(set.keys.allSatisfy { $0.alg == "ES256" && $0.use == "sig" })
                #expect(set.keys.filter { $0.kid.hasPrefix("provenance-") }.count == 1)
            }
        }
    }

    @Test func requestIDsAreEchoed() async throws {
        try await withHale { app in
            try await app.testing().test(.GET, "/healthz", headers: ["X-Request-Id": "abc-123"]) { response in
                #expect(response.headers.first(name: "X-Request-Id") == "abc-123")
            }
            try await app.testing().test(.GET, "/healthz") { response in
                #expect(response.headers.first(name: "X-Request-Id")?.isEmpty == false)
            }
        }
    }

    /// Routes that exist only in development attestation mode.
    static let developmentOnly: Set<String> = ["POST /health/development-attestation"]

    @Test(arguments: [false, true])
    func theOpenAPIDocumentDescribesEveryRouteAndNoOther(developmentMode: Bool) async throws {
        try await withHale(settings: ["appAttest.developmentMode": "\(developmentMode)"]) { app in
            try await app.testing().test(.GET, "/openapi.json") { response in
                #expect(response.status == .ok)
                let document = try response.json()
                #expect(document["openapi"] as? String == "3.1.0")
                let paths = document["paths"] as? [String: [String: Any]] ?? [:]
                let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
                let documented = Set(
                    paths.flatMap { path, operations in
                        operations.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" }
                    })
                // The account page's routes are its page's own, cookie-authenticated surface, documented in
                // docs/api/account-page.md: no app calls them.
                let served = Set(
                    app.routes.all.filter { $0.path.first?.description != "account" }.map { route in
                        "\(route.method.rawValue) /"
                            + route.path.map { component -> String in
                                if case .parameter(let name) = component { return "{\(name)}" }
                                return component.description
                            }.joined(separator: "/")
                    })
                #expect(developmentMode ? documented == served : documented.subtracting(Self.developmentOnly) == served)
            }
        }
    }
}
