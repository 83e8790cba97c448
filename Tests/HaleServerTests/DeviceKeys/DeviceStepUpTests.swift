import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// A step-up with the device key: a session that signed in on a device long ago signs a challenge bound to it, and
/// may then change how the account is reached (here, approve a recovery and add a device).
@Suite("HTTP: step-up with the device key")
struct DeviceStepUpTests {
    @Test("an older device session signs the challenge, and then counts as a fresh sign-in")
    func stepsUp() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: EmailAddressTests.settings) { app in
            let devices = DeviceAPI(app: app)
            let (_, fresh) = try await makeSignedInAccount(app)
            let phone = try DeviceClient(.iOS)
            try await devices.register(phone, bearer: fresh)
            let signedIn = try devices.decode(DeviceAPI.SignedIn.self, try await devices.signIn(phone))
            let stale = signedIn.tokens.accessToken
            time.advance(.seconds(600))
            let refused = try await devices.registrationChallenge(try DeviceClient(.android), bearer: stale)
            #expect(refused.status == .unauthorized, "ten minutes on, not fresh")

            let issued = try await devices.post("/api/v1/auth/step-up/device/challenge", [:], bearer: stale)
            #expect(issued.status == .ok, "\(issued.body.string)")
            let challenge = try #require(try issued.json()["challenge"] as? String)
            let other = try DeviceClient(.iOS)
            let forged = try await devices.post(
                "/api/v1/auth/step-up/device", ["challenge": challenge, "signedChallenge": try other.sign(challenge)],
                bearer: stale)
            #expect(forged.status == .unauthorized)
            let reissued = try await devices.post("/api/v1/auth/step-up/device/challenge", [:], bearer: stale)
            let second = try #require(try reissued.json()["challenge"] as? String)
            let stepped = try await devices.post(
                "/api/v1/auth/step-up/device", ["challenge": second, "signedChallenge": try phone.sign(second)],
                bearer: stale)
            #expect(stepped.status == .ok, "\(stepped.body.string)")
            let replay = try await devices.post(
                "/api/v1/auth/step-up/device", ["challenge": second, "signedChallenge": try phone.sign(second)],
                bearer: stale)
            #expect(replay.status == .badRequest, "a challenge is used once")
            try await devices.register(try DeviceClient(.android), bearer: stale)
        }
    }

    @Test("a session without a device, or a tool's token, cannot step up with a device key")
    func onlyADeviceSession() async throws {
        try await withHale(settings: EmailAddressTests.settings) { app in
            let (account, fresh) = try await makeSignedInAccount(app)
            let tool = try await app.hale.personalAccessTokens.create(for: account.id, name: "tool").token
            for bearer in [fresh, tool] {
                let refused = try await DeviceAPI(app: app).post(
                    "/api/v1/auth/step-up/device/challenge", [:], bearer: bearer)
                #expect(refused.status == .forbidden)
                #expect(try refused.coreError().error.code == "STEP_UP_UNAVAILABLE")
            }
        }
    }
}
