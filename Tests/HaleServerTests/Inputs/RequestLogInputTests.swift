import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// What a client sends that reaches the log: the path, and `X-Request-Id`.
@Suite("Log lines a client cannot forge")
struct RequestLogInputTests {
    @Test func aPathIsLoggedPercentEncodedAndCut() {
        #expect(RequestLogMiddleware.loggable("/health%0A[error] forged") == "/health%0A[error]%20forged")
        #expect(RequestLogMiddleware.loggable("/a\u{1B}[2Jb\u{7F}é") == "/a%1B[2Jb%7F%C3%A9")
        let long = "/" + String(repeating: "x", count: 600)
        #expect(RequestLogMiddleware.loggable(long) == String(long.prefix(512)) + "…")
    }

    @Test("a percent-encoded line break in the path never starts a log line")
    func pathIsNotDecoded() async throws {
        let capture = LogCapture()
        try await withHale { app in
            app.logger = capture.logger()
            let response = try await app.testing().sendRequest(.GET, "/api/v1/account%0A%5Berror%5D%20forged")
            #expect(response.status == .notFound)
            #expect(!capture.text.contains("\n[error] forged"))
            #expect(capture.text.contains("GET /api/v1/account%0A%5Berror%5D%20forged"))
        }
    }

    @Test(
        "X-Request-Id: 1 to 128 bytes of A-Z a-z 0-9 . _ - are kept, anything else replaced",
        arguments: [
            ("abc-123", true), ("0f8e.trace_ID-9", true), (String(repeating: "r", count: 128), true),
            (String(repeating: "r", count: 129), false), ("a b", false), ("a\tb", false), ("é", false),
            ("id\u{1B}[31m", false), ("", false),
        ])
    func requestID(sent: String, kept: Bool) async throws {
        let capture = LogCapture()
        try await withHale { app in
            app.logger = capture.logger()
            let response = try await app.testing().sendRequest(.GET, "/healthz", headers: ["X-Request-Id": sent])
            let echoed = try #require(response.headers.first(name: "X-Request-Id"))
            if kept {
                #expect(echoed == sent)
            } else {
                #expect(UUID(uuidString: echoed) != nil, "a fresh id replaces \(sent.debugDescription)")
            }
            let tagged = ["]", ","].contains { capture.text.contains("\"request-id\": \(echoed)\($0)") }
            #expect(tagged, "the log lines carry the id echoed")
            if !kept, !sent.isEmpty { #expect(!capture.text.contains(sent)) }
        }
    }
}
