import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("Webhooks: the admin API")
struct WebhookAdminRoutesTests {
    static func send(
        _ app: Application, _ method: HTTPMethod, _ path: String, key: String?, body: String? = nil
    ) async throws -> TestingHTTPResponse {
        var headers: HTTPHeaders = body == nil ? [:] : ["Content-Type": "application/json"]
        if let key { headers.add(name: .authorization, value: "Bearer \(key)") }
        return try await app.testing().sendRequest(
            method, path, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    @Test("add, list, rotate, test, list deliveries, remove: with an admin key only")
    func lifecycle() async throws {
        try await withHale { app in
            let key = try await app.hale.adminKeys.create(name: "backend").key
            let (_, token) = try await makeAccount(app)
            let body = #"{"url":"https://hooks.example.com/hale","eventTypes":["session.created","account.created"]}"#
            #expect(
                try await Self.send(app, .POST, "/api/v1/admin/webhooks/endpoints", key: nil, body: body).status
                    == .unauthorized)
            #expect(
                try await Self.send(app, .POST, "/api/v1/admin/webhooks/endpoints", key: token, body: body).status
                    == .unauthorized)
            let created = try await Self.send(app, .POST, "/api/v1/admin/webhooks/endpoints", key: key, body: body)
            #expect(created.status == .created)
            let answer = try created.json()
            #expect((answer["secret"] as? String)?.hasPrefix("whsec_") == true)
            let endpoint = try #require(answer["endpoint"] as? [String: Any])
            let id = try #require(endpoint["id"] as? String)
            #expect(endpoint["eventTypes"] as? [String] == ["account.created", "session.created"])

            let listed = try await Self.send(app, .GET, "/api/v1/admin/webhooks/endpoints", key: key)
            #expect(!listed.body.string.contains("whsec_"))
            let rotated = try await Self.send(
                app, .POST, "/api/v1/admin/webhooks/endpoints/\(id)/rotate-secret", key: key)
            #expect(try (rotated.json()["secret"] as? String)?.hasPrefix("whsec_") == true)
            let tested = try await Self.send(app, .POST, "/api/v1/admin/webhooks/endpoints/\(id)/test", key: key)
            #expect(tested.status == .accepted)
            let deliveries = try await Self.send(
                app, .GET, "/api/v1/admin/webhooks/deliveries?endpointId=\(id)&status=pending&limit=5", key: key)
            let rows = try #require(try deliveries.json()["deliveries"] as? [[String: Any]])
            #expect(rows.count == 1 && rows.first?["eventType"] as? String == "webhook.test")

            #expect(try await Self.send(app, .DELETE, "/api/v1/admin/webhooks/endpoints/\(id)", key: key).status == .ok)
            #expect(
                try await Self.send(app, .DELETE, "/api/v1/admin/webhooks/endpoints/\(id)", key: key).status
                    == .notFound)
            #expect(try await app.hale.webhooks.deliveries().isEmpty)
        }
    }

    @Test(
        "a clear 400 for each bad endpoint",
        arguments: [
            (#"{"eventTypes":["*"]}"#, "url is required"),
            (#"{"url":"https://h.example.com"}"#, "eventTypes is required"),
            (#"{"url":"http://h.example.com","eventTypes":["*"]}"#, "https URL"),
            (#"{"url":"https://user:pw@h.example.com","eventTypes":["*"]}"#, "without credentials"),
            (#"{"url":"https://h.example.com","eventTypes":[]}"#, "at least one event type"),
            (#"{"url":"https://h.example.com","eventTypes":["*","account.created"]}"#, "* only alone"),
            (#"{"url":"https://h.example.com","eventTypes":["account.made"]}"#, "account.made"),
            (#"{"url":"https://h.example.com","eventTypes":["webhook.test"]}"#, "webhook.test"),
            (#"{"url":"https://h.example.com","eventTypes":["*"],"secret":"x"}"#, "secret"),
        ])
    func badEndpoints(body: String, mentioning: String) async throws {
        try await withHale { app in
            let key = try await app.hale.adminKeys.create(name: "backend").key
            let response = try await Self.send(app, .POST, "/api/v1/admin/webhooks/endpoints", key: key, body: body)
            #expect(response.status == .badRequest, "\(body)")
            let message = try response.coreError().error.message
            #expect(message.contains(mentioning), "\(message)")
        }
    }

    @Test("bad ids, filters and replays are 4xx")
    func badQueries() async throws {
        try await withHale { app in
            let key = try await app.hale.adminKeys.create(name: "backend").key
            for (method, path, status) in [
                (HTTPMethod.DELETE, "/api/v1/admin/webhooks/endpoints/nope", HTTPResponseStatus.badRequest),
                (.POST, "/api/v1/admin/webhooks/endpoints/\(UUID())/test", .notFound),
                (.POST, "/api/v1/admin/webhooks/endpoints/\(UUID())/rotate-secret", .notFound),
                (.GET, "/api/v1/admin/webhooks/deliveries?status=lost", .badRequest),
                (.GET, "/api/v1/admin/webhooks/deliveries?limit=0", .badRequest),
                (.GET, "/api/v1/admin/webhooks/deliveries?limit=x", .badRequest),
                (.GET, "/api/v1/admin/webhooks/deliveries?endpointId=x", .badRequest),
                (.GET, "/api/v1/admin/webhooks/deliveries?sort=id", .badRequest),
                (.POST, "/api/v1/admin/webhooks/deliveries/0/replay", .badRequest),
                (.POST, "/api/v1/admin/webhooks/deliveries/12/replay", .notFound),
            ] {
                let response = try await Self.send(app, method, path, key: key)
                #expect(response.status == status, "\(method) \(path): \(response.body.string)")
            }
        }
    }
}
