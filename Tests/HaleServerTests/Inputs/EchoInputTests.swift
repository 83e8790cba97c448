import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// An error repeats at most 64 bytes of a name the client chose, escaped.
@Suite("Names a client sent, repeated in errors")
struct EchoInputTests {
    static let long = String(repeating: "a", count: 3_000)
    static let cut = String(repeating: "a", count: 64) + "…"

    @Test func echoedNamesAreCutAndEscaped() {
        #expect(EchoedName.text("userId") == "userId")
        #expect(EchoedName.text(Self.long) == Self.cut)
        #expect(EchoedName.text("a\nb\"c\\d\u{7F}\u{2028}") == #"a\u000Ab\"c\\d\u007F\u2028"#)
        #expect(EchoedName.text(String(repeating: "é", count: 40)) == String(repeating: "é", count: 32) + "…")
    }

    @Test("an unknown field in a core-shape body")
    func coreShape() async throws {
        try await withHale { app in
            let response = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/refresh", headers: .json(),
                body: .json(#"{"refreshToken":"x","\#(Self.long)":1}"#))
            #expect(response.status == .badRequest)
            #expect(try response.coreError().error.message == "Unknown field \"\(Self.cut)\".")
            let forged = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/refresh", headers: .json(), body: .json(#"{"refreshToken":"x","a\nb":1}"#))
            #expect(try forged.coreError().error.message == #"Unknown field "a\u000Ab"."#)
        }
    }

    @Test("an unknown query parameter and body field on seed 001's routes")
    func seed001() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let query = try await app.testing().sendRequest(
                .GET, "/health/today?\(Self.long)=1", headers: .bearer(token))
            #expect(try HealthHTTPTests.error(query, .badRequest) == "property \(Self.cut) should not exist")
            let body = try await app.testing().sendRequest(
                .POST, "/health", headers: .json(bearer: token), body: .json(#"{"a\r\nb":1}"#))
            #expect(try HealthHTTPTests.error(body, .badRequest) == #"property a\u000D\u000Ab should not exist"#)
        }
    }

    @Test("an unknown member of seed 003's document is named in its pointer, cut")
    func seed003() async throws {
        try await withHale { app in
            let response = try await SocialSignInHTTPTests.login(
                app,
                #"{"data": {"attributes": {"provider": "google", "oauthToken": "t", "role": "client", "\#(Self.long)": 1}}}"#
            )
            let errors = try SocialSignInHTTPTests.errors(
                of: response, .unprocessableEntity, indicator: "VALIDATION_FAILED")
            let pointers = errors.compactMap { ($0["source"] as? [String: Any])?["pointer"] as? String }
            #expect(pointers == ["/data/attributes/\(Self.cut)"])
        }
    }
}
