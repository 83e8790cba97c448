import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Hale cannot revoke a Firebase ID token, and the Firebase SDK mints a new one every hour for the same sign-in:
/// after "sign out everywhere", a device's revocation or the account's deletion, tokens whose `auth_time` is before
/// that moment are refused, and a fresh sign-in's are not.
@Suite("Firebase: revocation reaches ID tokens")
struct FirebaseRevocationTests {
    static let uid = "firebase-revoked-user"

    private static func token(_ harness: FirebaseHarness, signedInSecondsAgo: Int) throws -> String {
        try harness.firebase.idToken(
            uid: uid, changes: ["auth_time": Int(Date().timeIntervalSince1970) - signedInSecondsAgo])
    }

    /// Whether `token` is let in on a seed 000 route, and the code it is refused with otherwise.
    private static func admitted(_ harness: FirebaseHarness, _ token: String) async throws -> (Bool, String?) {
        let response = try await harness.get("/api/mobile/biometric/passkeys", bearer: token)
        guard response.status == .ok else {
            #expect(response.status == .unauthorized)
            return (false, try response.coreError().error.code)
        }
        return (true, nil)
    }

    @Test(
        "after sign out everywhere, a token from the sign-in before is refused; one from a new sign-in is not",
        arguments: TestDatabase.available)
    func signingOutEverywhere(database: TestDatabase) async throws {
        try await FirebaseHarness.run(on: database) { harness in
            let before = try Self.token(harness, signedInSecondsAgo: 30)
            let account = try await harness.account(bearer: before)
            #expect(try await Self.admitted(harness, before) == (true, nil))
            try await harness.app.hale.sessions.signOutEverywhere(account)
            #expect(try await Self.admitted(harness, before) == (false, "TOKEN_INVALID"))
            // Minted again by the SDK an hour later, for the same sign-in: still refused.
            let reminted = try harness.firebase.idToken(
                uid: Self.uid,
                changes: [
                    "auth_time": Int(Date().timeIntervalSince1970) - 30, "iat": Int(Date().timeIntervalSince1970),
                ])
            #expect(try await Self.admitted(harness, reminted).0 == false)
            let after = try Self.token(harness, signedInSecondsAgo: 0)
            #expect(try await Self.admitted(harness, after) == (true, nil))
            #expect(try await harness.account(bearer: after) == account)
        }
    }

    @Test("after one of the account's devices is revoked, a token from before is refused")
    func revokingADevice() async throws {
        try await FirebaseHarness.run { harness in
            let before = try Self.token(harness, signedInSecondsAgo: 30)
            let account = try await harness.account(bearer: before)
            let client = try DeviceClient(.iOS)
            let devices = harness.app.hale.devices
            let challenge = try await devices.startRegistration(
                DeviceRegistrationRequest(
                    deviceName: "Ada's phone", deviceType: .mobile, deviceFingerprint: client.fingerprint,
                    publicKey: client.publicKeyPEM, keyAlgorithm: .es256), account: account)
            let registered = try await devices.completeRegistration(
                sessionId: challenge.sessionId, signedChallenge: try client.sign(challenge.challenge), account: account,
                ip: nil)
            #expect(try await Self.admitted(harness, before) == (true, nil), "registering is no revocation")
            try await devices.deactivate(registered.device.id, of: account, ip: nil)
            #expect(try await Self.admitted(harness, before) == (false, "TOKEN_INVALID"))
            #expect(try await Self.admitted(harness, try Self.token(harness, signedInSecondsAgo: 0)) == (true, nil))
        }
    }

    @Test(
        "after the account is deleted, a token from before makes no new account; a new sign-in's does",
        arguments: TestDatabase.available)
    func deletingTheAccount(database: TestDatabase) async throws {
        try await FirebaseHarness.run(on: database) { harness in
            let before = try Self.token(harness, signedInSecondsAgo: 30)
            let account = try await harness.account(bearer: before)
            #expect(try await harness.app.hale.accounts.delete(account))
            #expect(try await Self.admitted(harness, before) == (false, "TOKEN_INVALID"))
            #expect(try await harness.accountCount() == 0, "the old token made no account")
            let after = try Self.token(harness, signedInSecondsAgo: 0)
            #expect(try await Self.admitted(harness, after) == (true, nil))
            #expect(try await harness.account(bearer: after) != account)
            #expect(try await Self.admitted(harness, before).0 == false, "nor does it reach the new one")
        }
    }
}
