import Foundation
import HaleClient
import Vapor

/// Serves `app` on a free loopback port for the length of `body`, which gets an SDK client signed in with `token`.
public func withServedClient(
    _ app: Application, token: String, _ body: (HaleClient) async throws -> Void
) async throws {
    let port = try freeLoopbackPort()
    try await app.asyncBoot()
    try await app.server.start(address: .hostname("127.0.0.1", port: port))
    do {
        let client = HaleClient(testing: URL(string: "http://127.0.0.1:\(port)")!)
        await client.restore(SessionTokens(accessToken: token, refreshToken: "unused"))
        try await body(client)
    } catch {
        await app.server.shutdown()
        throw error
    }
    await app.server.shutdown()
}
