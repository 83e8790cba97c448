import Foundation
import HaleTesting
import Testing
import Vapor

@testable import HaleServer

/// `HaleClient.developmentAppAttester()` against an in-process server on loopback.
@Suite("Development attestation: the Swift SDK")
struct DevelopmentAttestationSDKTests {
    @Test("the SDK's development attester, from a running server, registers a key and submits")
    func sdkAgainstRunningServer() async throws {
        try await withHale(settings: DevelopmentAttestationTests.on) { app in
            let (_, token) = try await makeAccount(app)
            let port = try freeLoopbackPort()
            try await app.asyncBoot()
            try await app.server.start(address: .hostname("127.0.0.1", port: port))
            do {
                let client = HaleClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")))
                await client.restore(SessionTokens(accessToken: token, refreshToken: "unused"))
                let attester = try await client.developmentAppAttester()
                #expect(attester.appID == DevelopmentAttestationTests.developmentApp)
                #expect(attester.environment == .production)
                let http = DevelopmentAttestationTests.Client(app: app, token: token)
                let (keyID, registered) = try await http.register(attester)
                #expect(registered.status == .created, "\(registered.body.string)")
                let submitted = try await http.submit(attester, keyID: keyID, steps: 4000)
                #expect(submitted.status == .created, "\(submitted.body.string)")
            } catch {
                await app.server.shutdown()
                throw error
            }
            await app.server.shutdown()
        }
    }
}
