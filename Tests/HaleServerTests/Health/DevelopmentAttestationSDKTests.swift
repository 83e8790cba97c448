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
            try await withServedClient(app, token: token) { client in
                let attester = try await client.developmentAppAttester()
                #expect(attester.appID == DevelopmentAttestationTests.developmentApp)
                #expect(attester.environment == .production)
                let http = DevelopmentAttestationTests.Client(app: app, token: token)
                let (keyID, registered) = try await http.register(attester)
                #expect(registered.status == .created, "\(registered.body.string)")
                let submitted = try await http.submit(attester, keyID: keyID, steps: 4000)
                #expect(submitted.status == .created, "\(submitted.body.string)")
            }
        }
    }
}
