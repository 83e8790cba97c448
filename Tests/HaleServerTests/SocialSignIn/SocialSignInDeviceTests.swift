import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Seed 003's token belongs to the device that signed in: the installation named in `X-Installation-Id`, else the
/// one its FCM token identifies, else a new device. Revoking the device revokes the token, and a device new to the
/// account is a sign-in from a new device.
@Suite("Social sign-in: the token belongs to a device")
struct SocialSignInDeviceTests {
    typealias Service = SocialSignInServiceTests

    static func account(_ app: Application, _ token: String) async throws -> HTTPStatus {
        try await app.testing().sendRequest(.GET, "/api/v1/account", headers: .bearer(token)).status
    }

    @Test(
        "the same installation keeps one device; deactivating it revokes the token; no token nor id is a new device",
        arguments: TestDatabase.available)
    func tokensBelongToDevices(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let social = Service.service(app, Service.identity())
            let first = try await social.signIn(Service.request(deviceTokens: ["fcm-1"]), logger: Service.logger)
            let second = try await social.signIn(Service.request(deviceTokens: ["fcm-1"]), logger: Service.logger)
            var devices = try await app.hale.devices.list(for: first.accountId)
            #expect(devices.count == 1, "one installation, one device")
            let phone = try #require(devices.first?.device.id)

            var named = Service.request()
            named.installation = "install-tablet"
            let tablet = try await social.signIn(named, logger: Service.logger)
            _ = try await social.signIn(named, logger: Service.logger)
            let bare = try await social.signIn(Service.request(), logger: Service.logger)
            devices = try await app.hale.devices.list(for: first.accountId)
            #expect(devices.count == 3, "the phone, the tablet and a device for the sign-in that named none")
            let events = try await app.hale.audit.events(of: first.accountId).filter {
                $0.eventType == "new_device_sign_in"
            }
            #expect(events.count == 2, "the tablet and the unnamed sign-in are new; the sign-up is not")

            let revoked = try await app.hale.devices.deactivate(phone, of: first.accountId, ip: nil)
            #expect(revoked.personalAccessTokens == 2)
            #expect(try await Self.account(app, first.token) == .unauthorized)
            #expect(try await Self.account(app, second.token) == .unauthorized)
            #expect(try await Self.account(app, tablet.token) == .ok, "another device's token is untouched")
            #expect(try await Self.account(app, bare.token) == .ok)

            // The token's device is the bearer's own: seed 002's push-token update without a device id reaches it.
            let update = try await app.testing().sendRequest(
                .PUT, "/api/v1/devices/push-token", headers: .json(bearer: tablet.token),
                body: ByteBuffer(string: #"{"fcmToken":"fcm-tablet-2"}"#))
            #expect(update.status == .ok, "\(update.body.string)")
            let listed = try await app.hale.devices.list(for: first.accountId)
            #expect(listed.filter { $0.device.fcmToken == "fcm-tablet-2" }.count == 1)
        }
    }
}
