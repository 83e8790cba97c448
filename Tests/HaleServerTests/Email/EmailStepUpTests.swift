import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// A verified address is a credential: once an account has one, a tool's token cannot add a passkey or device key.
/// An account with nothing else steps up with a code mailed to it; one with a passkey, device key or social identity
/// must use those.
@Suite("HTTP: step-up by email code")
struct EmailStepUpTests {
    static let settings = EmailAddressTests.settings

    @Test("an account with only a verified address: an email sign-in steps up by code, then adds its first device")
    func nothingButAnAddress() async throws {
        try await withHale(settings: Self.settings) { app in
            let (account, tool) = try await makeAccount(app)
            let fresh = try await freshSignIn(app, account.id)
            try await EmailAddressTests.API(app: app).add("person@example.com", bearer: fresh)
            let planted = try await DeviceAPI(app: app).registrationChallenge(try DeviceClient(.iOS), bearer: tool)
            #expect(planted.status == .unauthorized, "the address is a credential: a tool's token cannot add a key")

            let api = EmailRecoveryTests.API(app: app)
            _ = try await api.post("/api/v1/auth/email/code", ["email": "person@example.com"])
            let signInCode = try #require(try await Mailbox(app: app).code(to: "person@example.com"))
            let signedIn = try await api.post(
                "/api/v1/auth/email/sign-in", ["email": "person@example.com", "code": signInCode])
            let session = try #require((try signedIn.json()["tokens"] as? [String: Any])?["accessToken"] as? String)

            let asked = try await api.post(
                "/api/v1/auth/step-up/email/code", ["email": "person@example.com"], bearer: session)
            #expect(asked.status == .accepted, "\(asked.body.string)")
            let code = try #require(try await Mailbox(app: app).code(to: "person@example.com"))
            #expect(code != signInCode)
            let mailed = try await Mailbox(app: app).data(to: "person@example.com").last
            #expect(mailed?["purpose"] == "step_up")
            let wrongPurpose = try await api.post(
                "/api/v1/auth/step-up/email", ["email": "person@example.com", "code": signInCode], bearer: session)
            #expect(try wrongPurpose.coreError().error.code == "EMAIL_CODE_INVALID")
            let steppedUp = try await api.post(
                "/api/v1/auth/step-up/email", ["email": "person@example.com", "code": code], bearer: session)
            #expect(steppedUp.status == .ok, "\(steppedUp.body.string)")
            #expect(try steppedUp.json()["freshUntil"] is String)
            try await DeviceAPI(app: app).register(try DeviceClient(.iOS), bearer: session)
        }
    }

    @Test("an account with a device key must step up with it, not by email; another account's address is not its own")
    func notAShortcut() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, phone) = try await EmailRecoveryTests.account(app)
            let api = EmailRecoveryTests.API(app: app)
            let refused = try await api.post(
                "/api/v1/auth/step-up/email/code", ["email": "person@example.com"], bearer: phone)
            #expect(refused.status == .forbidden)
            #expect(try refused.coreError().error.code == "STEP_UP_UNAVAILABLE")

            let (other, _) = try await makeAccount(app, email: "other@example.com")
            let otherFresh = try await freshSignIn(app, other.id)
            let notOwn = try await api.post(
                "/api/v1/auth/step-up/email/code", ["email": "person@example.com"], bearer: otherFresh)
            #expect(notOwn.status == .notFound)
        }
    }
}
