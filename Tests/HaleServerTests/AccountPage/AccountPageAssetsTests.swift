import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// The page's files: served from the package's resources with a strict Content-Security-Policy, nothing else.
@Suite("Account page: files and their headers")
struct AccountPageAssetsTests {
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    @Test func thePageAndItsFilesCarryTheStrictPolicy() async throws {
        try await withHale { app in
            let files = [
                ("/account", "text/html"), ("/account/assets/app.js", "text/javascript"),
                ("/account/assets/style.css", "text/css"),
            ]
            for (path, type) in files {
                let response = try await app.testing().sendRequest(.GET, path)
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers.first(name: "Content-Security-Policy") == Self.policy, "\(path)")
                #expect(response.headers.first(name: "X-Frame-Options") == "DENY", "\(path)")
                #expect(response.headers.first(name: .contentType)?.hasPrefix(type) == true, "\(path)")
                #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(path)")
            }
        }
    }

    @Test func thePageHasNoInlineScriptOrStyle() async throws {
        try await withHale { app in
            let page = try await app.testing().sendRequest(.GET, "/account").body.string
            #expect(page.contains(#"<script type="module" src="/account/assets/app.js"></script>"#))
            for inline in ["<script>", "<style", " style=", " onclick=", " onload=", "javascript:"] {
                #expect(!page.contains(inline), "\(inline)")
            }
        }
    }

    @Test func onlyThePagesOwnFilesAreServed() async throws {
        try await withHale { app in
            for path in [
                "/account/assets/nothing.js", "/account/assets/index.html", "/account/assets/..%2Fopenapi.yaml",
                "/account/assets/%2E%2E%2F%2E%2E%2FPackage.swift",
            ] {
                let response = try await app.testing().sendRequest(.GET, path)
                #expect(response.status == .notFound, "\(path)")
                #expect(try response.coreError().error.code == "NOT_FOUND", "\(path)")
            }
        }
    }
}

/// The page's ceremonies spend the same per-client sign-in budget as seed 000's (`rateLimits.signInPerIp`).
@Suite("Account page: sign-in budget")
struct AccountPageRateLimitTests {
    @Test func thePagesCeremoniesShareTheSignInBudget() async throws {
        try await withHale(settings: PageVisitor.settings.merging(["rateLimits.signInPerIp": "3/1m"]) { $1 }) { app in
            var visitor = try PageVisitor(
                app, tester: try app.testing(method: .running(hostname: "127.0.0.1", port: try freeLoopbackPort())))
            for path in ["/account/api/sign-in/options", "/api/mobile/biometric/authenticate/options"] {
                _ = try await visitor.send(.POST, path, json: [String: String]())
            }
            #expect(
                try await visitor.send(.POST, "/account/api/sign-up/options", json: ["displayName": "A"]).status == .ok)
            let refused = try await visitor.send(.POST, "/account/api/sign-in/options")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers.first(name: .retryAfter).flatMap(Int.init).map { $0 > 0 && $0 <= 60 } == true)
        }
    }
}
