import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("Tokens any library verifies: discovery, aud and the issuer")
struct TokenDiscoveryTests {
    @Test("with server.publicURL the issuer is the public URL, and the document names its key set under it")
    func discoveryUnderThePublicURL() async throws {
        try await withHale(settings: ["server.publicURL": "https://id.example.com/"]) { app in
            let response = try await app.testing().sendRequest(.GET, "/.well-known/openid-configuration")
            #expect(response.status == .ok)
            #expect(response.headers.first(name: .cacheControl) == "public, max-age=300")
            let document = try response.content.decode(DiscoveryDocument.self)
            #expect(document.issuer == "https://id.example.com")
            #expect(document.jwksURI == "https://id.example.com/.well-known/jwks.json")
            #expect(document.introspectionEndpoint == "https://id.example.com/api/v1/admin/introspect")
            #expect(document.idTokenSigningAlgValuesSupported == ["ES256"])
            let account = try await app.hale.accounts.create(email: try AccountEmail("a@example.com"), role: "user")
            let token = try await freshSignIn(app, account.id)
            #expect(try Self.payload(of: token)["iss"] as? String == "https://id.example.com")
            #expect(try Self.payload(of: token)["aud"] == nil)
        }
    }

    @Test("without server.publicURL: tokens.issuer or hale, URLs under the request's Host, and never cached")
    func discoveryWithoutAPublicURL() async throws {
        try await withHale { app in
            let response = try await app.testing().sendRequest(
                .GET, "/.well-known/openid-configuration", headers: ["Host": "localhost:8080"])
            #expect(response.headers.first(name: .cacheControl) == "no-store")
            let document = try response.content.decode(DiscoveryDocument.self)
            #expect(document.issuer == "hale")
            #expect(document.jwksURI == "http://localhost:8080/.well-known/jwks.json")
        }
        try await withHale(settings: ["tokens.issuer": "urn:example", "server.publicURL": "https://id.example.com"]) {
            app in
            let response = try await app.testing().sendRequest(.GET, "/.well-known/openid-configuration")
            #expect(try response.content.decode(DiscoveryDocument.self).issuer == "urn:example")
        }
    }

    @Test("tokens.audiences: one audience is a string, several an array; Hale accepts its tokens either way")
    func audiences() async throws {
        for (setting, expected) in [("api.example.com", "api.example.com" as Any), ("a,b", ["a", "b"] as Any)] {
            try await withHale(settings: ["tokens.audiences": setting]) { app in
                let (account, _) = try await makeAccount(app)
                let token = try await freshSignIn(app, account.id)
                let aud = try Self.payload(of: token)["aud"]
                #expect("\(aud ?? "none")" == "\(expected)")
                let response = try await app.testing().sendRequest(
                    .GET, "/api/v1/account", headers: ["Authorization": "Bearer \(token)"])
                #expect(response.status == .ok)
            }
        }
    }

    @Test("the configuration refuses an audience that is empty, spaced or too long")
    func badAudiences() throws {
        for bad in [" ", "a b", String(repeating: "a", count: 257), "é"] {
            #expect(throws: ConfigError.self, "\(bad)") {
                try HaleConfiguration.audiences([bad])
            }
        }
        func issuer(_ settings: [String: String]) throws -> String {
            var values = ConfigValues(settings)
            values["database.url"] = "sqlite:/tmp/unused.sqlite"
            return try HaleConfiguration(values).tokens.issuer
        }
        #expect(try issuer(["server.publicURL": "https://x.example//"]) == "https://x.example")
        #expect(try issuer([:]) == "hale")
        #expect(try issuer(["tokens.issuer": "urn:x", "server.publicURL": "https://x.example"]) == "urn:x")
    }

    static func payload(of token: String) throws -> [String: Any] {
        let part = String(token.split(separator: ".")[1])
        let data = try #require(Data(base64URLEncoded: part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

extension Data {
    fileprivate init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
