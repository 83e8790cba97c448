import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("HTTP: bad input gets a clear 4xx")
struct HTTPBadInputTests {
    private func expectError(
        _ app: Application, _ headers: HTTPHeaders, _ body: String, status: HTTPResponseStatus, code: String,
        mentioning text: String
    ) async throws {
        try await app.testing().test(.POST, "/api/v1/auth/refresh", headers: headers, body: .json(body)) { response in
            #expect(response.status == status)
            let error = try response.coreError()
            #expect(error.error.code == code)
            #expect(error.error.message.localizedCaseInsensitiveContains(text), "\(error.error.message)")
        }
    }

    @Test func malformedJSON() async throws {
        try await withHale { app in
            try await expectError(
                app, .json(), "{not json", status: .badRequest, code: "INVALID_REQUEST", mentioning: "JSON")
        }
    }

    @Test func missingField() async throws {
        try await withHale { app in
            try await expectError(
                app, .json(), "{}", status: .badRequest, code: "INVALID_REQUEST", mentioning: "refreshToken")
        }
    }

    @Test func wrongType() async throws {
        try await withHale { app in
            try await expectError(
                app, .json(), #"{"refreshToken": 12}"#, status: .badRequest, code: "INVALID_REQUEST",
                mentioning: "refreshToken")
        }
    }

    @Test func unknownField() async throws {
        try await withHale { app in
            try await expectError(
                app, .json(), #"{"refreshToken": "x", "admin": true}"#, status: .badRequest, code: "INVALID_REQUEST",
                mentioning: "admin")
        }
    }

    @Test func aBodyThatIsNotAnObject() async throws {
        try await withHale { app in
            try await expectError(
                app, .json(), "[1, 2]", status: .badRequest, code: "INVALID_REQUEST", mentioning: "JSON object")
        }
    }

    @Test(
        "nesting deeper than 32 is refused before decoding, on the routes Foundation decodes and the ones read member by member"
    )
    func deepNesting() async throws {
        let deep =
            #"{"refreshToken": "x", "extra": "# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
            + "}"
        try await withHale { app in
            try await expectError(
                app, .json(), deep, status: .badRequest, code: "INVALID_REQUEST",
                mentioning: "nested at most 32 deep")
            let (_, token) = try await makeAccount(app)
            let response = try await app.testing().sendRequest(
                .POST, "/health", headers: .json(bearer: token), body: .json(deep))
            #expect(response.status == .badRequest)
            #expect(
                try response.json()["message"] as? String == "Arrays and objects may be nested at most 32 deep.")
        }
    }

    @Test("a sync body of more than 500,000 items and members is refused before decoding")
    func tooManyElements() async throws {
        let zeros = Array(repeating: "0", count: 500_000).joined(separator: ",")
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let response = try await app.testing().sendRequest(
                .POST, "/api/v1/health/sync", headers: .json(bearer: token),
                body: .json(#"{"provider": "apple_health", "samples": ["# + zeros + "]}"))
            #expect(response.status == .badRequest)
            #expect(
                try response.coreError().error.message
                    == "Arrays and objects may hold at most 500000 items and members in all.")
        }
    }

    @Test("a member named twice, a NUL character and an overflowing number, on a route read member by member")
    func strictReading() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let cases = [
                (#"{"nonce": "a", "nonce": "b"}"#, "An object names the same member twice."),
                (#"{"nonce": "a\u0000"}"#, "Strings must not contain the NUL character (U+0000)."),
                (#"{"steps": 1e400}"#, "A number is too large."), (#"{"nonce": }"#, "The body must be JSON"),
            ]
            for (body, message) in cases {
                let response = try await app.testing().sendRequest(
                    .POST, "/health", headers: .json(bearer: token), body: .json(body))
                #expect(response.status == .badRequest, "\(body)")
                #expect(try response.json()["message"] as? String == message)
            }
        }
    }

    @Test func wrongContentType() async throws {
        try await withHale { app in
            try await expectError(
                app, ["Content-Type": "text/plain"], #"{"refreshToken": "x"}"#, status: .unsupportedMediaType,
                code: "UNSUPPORTED_MEDIA_TYPE", mentioning: "application/json")
        }
    }

    @Test func oversizedBody() async throws {
        try await withHale(settings: ["server.maxBodySize": "1KiB"]) { app in
            let big = #"{"refreshToken": "\#(String(repeating: "a", count: 5000))"}"#
            try await app.testing(method: .running(port: 0)).test(
                .POST, "/api/v1/auth/refresh", headers: .json(), body: .json(big)
            ) { response in
                let error = try response.coreError()
                #expect(response.status == .payloadTooLarge)
                #expect(error.error.code == "PAYLOAD_TOO_LARGE")
            }
        }
    }

    @Test func unknownRoute() async throws {
        try await withHale { app in
            try await app.testing().test(.GET, "/nowhere") { response in
                let error = try response.coreError()
                #expect(response.status == .notFound)
                #expect(error.error.code == "NOT_FOUND")
            }
        }
    }

    @Test("a bug answers a 500 in the shape of its surface, saying nothing of what failed")
    func unexpectedErrorsAreA500InTheSurfacesShape() async throws {
        struct Boom: Error { let secret = "do-not-show" }
        try await withHale { app in
            for path in ["boom", "health/boom", "api/v1/auth/oauth/boom"] {
                app.get(path.split(separator: "/").map { PathComponent(stringLiteral: String($0)) }) {
                    _ -> String in throw Boom()
                }
            }
            let core = try await app.testing().sendRequest(.GET, "/boom")
            #expect(core.status == .internalServerError && !core.body.string.contains("do-not-show"))
            #expect(try core.coreError().error.code == "INTERNAL_ERROR")
            // Seed 001's NestJS shape.
            let nest = try await app.testing().sendRequest(.GET, "/health/boom").json()
            #expect(nest["statusCode"] as? Int == 500 && nest["message"] as? String == "Internal server error")
            #expect(nest["error"] as? String == "Internal Server Error")
            // Seed 003's JSON:API shape.
            let jsonAPI = try await app.testing().sendRequest(.GET, "/api/v1/auth/oauth/boom").json()
            let errors = try #require(jsonAPI["errors"] as? [[String: Any]], "\(jsonAPI)")
            #expect(errors.first?["status"] as? String == "500")
        }
    }

    @Test func surfacesRenderTheirOwnShape() {
        struct Plain: ErrorRenderer {
            func render(_ error: HaleError, for request: Request) -> Response { Response(status: .imATeapot) }
        }
        var renderers = ErrorRenderers()
        renderers.register(Plain(), for: "/health")
        #expect(renderers.renderer(for: "/health/today") is Plain)
        #expect(renderers.renderer(for: "/health") is Plain)
        #expect(renderers.renderer(for: "/healthz") is CoreErrorRenderer)
        #expect(renderers.renderer(for: "/api/v1/account") is CoreErrorRenderer)
    }
}
