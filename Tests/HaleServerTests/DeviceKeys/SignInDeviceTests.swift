import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// Every passkey session belongs to a device: the installation's when the app names it (`X-Installation-Id`, which
/// the SDK always sends), the device a device-bound passkey was registered from when it does not, a new one
/// otherwise. So the device list shows passkey sessions, revoking a device ends them, and a sign-in from a device the
/// account has not seen raises `new_device_sign_in`.
@Suite("Devices: every passkey session belongs to a device")
struct SignInDeviceTests {
    static let settings = ["passkeys.rpId": "localhost", "passkeys.origins": "http://localhost:8080"]

    static func passkey() -> SoftwarePasskeyAuthenticator {
        SoftwarePasskeyAuthenticator(SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080"))
    }

    @Test(
        "the installation's device: reused at each sign-in, a new one alerted, revoking it ends its sessions and passkeys",
        arguments: TestDatabase.available)
    func installations(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app, email: "unused@example.com")
            try await withServedClient(app, token: token) { served in
                let phone = HaleClient(testing: served.baseURL, installationID: "install-phone")
                let key = Self.passkey()
                let signedUp = try await phone.signUp(
                    displayName: "Ada", with: key, device: PasskeyDevice(platform: "ios", deviceName: "Ada's iPhone"))
                let passkeyID = signedUp.passkey.id
                var devices = try await phone.devices()
                #expect(devices.map(\.name) == ["Ada's iPhone"])
                #expect(devices.first?.signInMethods == ["passkey"])
                #expect(devices.first?.passkeys.map(\.id) == [passkeyID], "the passkey is registered from it")
                #expect(devices.first?.sessions.map(\.current) == [true])
                let phoneDevice = try #require(devices.first?.id)

                try await phone.signOut()
                try await phone.signIn(with: key)
                devices = try await phone.devices()
                #expect(devices.map(\.id) == [phoneDevice], "the same installation signs in on the same device")
                #expect(devices.first?.sessions.count == 1)
                #expect(try await Self.newDeviceEvents(phone).isEmpty, "neither the sign-up nor the phone is news")

                let laptop = HaleClient(testing: served.baseURL, installationID: "install-laptop")
                try await laptop.signIn(with: key)
                devices = try await phone.devices()
                #expect(devices.count == 2)
                let laptopDevice = try #require(devices.first { $0.id != phoneDevice })
                #expect(laptopDevice.sessions.map(\.signInMethod) == ["passkey"])
                #expect(laptopDevice.name == "Ada's iPhone", "a device-bound passkey describes where it lives")
                let alerted = try await Self.newDeviceEvents(phone)
                #expect(alerted.map(\.deviceId) == [laptopDevice.id])
                #expect(alerted.first?.details == ["signInMethod": "passkey"])

                let laptopEnded = try await phone.deactivateDevice(laptopDevice.id)
                #expect(laptopEnded.sessions == 1)
                #expect(laptopEnded.passkeys.isEmpty, "the passkey was registered from the phone")
                await #expect(throws: HaleClientError.self) { try await laptop.account() }

                let phoneEnded = try await phone.deleteDevice(phoneDevice)
                #expect(phoneEnded.sessions == 1)
                #expect(phoneEnded.passkeys == [passkeyID], "its device-bound passkey goes with it")
                let other = HaleClient(testing: served.baseURL, installationID: "install-other")
                await #expect(throws: HaleClientError.self) { try await other.signIn(with: key) }
            }
        }
    }

    @Test("X-Installation-Id is bounded: a 400 names the header and its rule")
    func installationHeaderBounded() async throws {
        try await withHale(settings: Self.settings) { app in
            let response = try await app.testing().sendRequest(
                .POST, "/api/mobile/biometric/authenticate/verify",
                headers: ["Content-Type": "application/json", "X-Installation-Id": String(repeating: "i", count: 129)],
                body: ByteBuffer(string: #"{"credential":{},"uid":"x"}"#))
            #expect(response.status == .badRequest)
            #expect(
                try response.coreError().error.message
                    == "X-Installation-Id must be 1 to 128 printable ASCII characters.")
        }
    }

    @Test("without an installation id, a device-bound passkey signs in on the device it was registered from")
    func noInstallation() async throws {
        try await withHale(settings: Self.settings) { app in
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            let signUp = try await Self.post(
                app, "/api/mobile/biometric/register/options",
                ["displayName": "Ada", "platform": "android", "deviceName": "Pixel 8"])
            let creation = try JSONDecoder().decode(Options<CreationOptions>.self, from: Data(buffer: signUp.body))
            let credential = passkey.register(options: creation.options)
            let registered = try await Self.post(
                app, "/api/mobile/biometric/register/verify", RegisterBody(credential: credential, deviceInfo: nil))
            #expect(registered.status == .ok, "\(registered.body.string)")
            let bearer = try #require(try registered.json()["token"] as? String)
            for _ in 0..<2 {
                let asked = try await Self.post(
                    app, "/api/mobile/biometric/authenticate/options", [String: String]())
                let options = try JSONDecoder().decode(Options<RequestOptions>.self, from: Data(buffer: asked.body))
                let signedIn = try await Self.post(
                    app, "/api/mobile/biometric/authenticate/verify",
                    AuthenticateBody(
                        credential: passkey.assert(options: options.options), uid: try #require(options.uid)))
                #expect(signedIn.status == .ok, "\(signedIn.body.string)")
            }
            let listed = try await app.testing().sendRequest(.GET, "/api/v1/devices", headers: .bearer(bearer))
            let devices = try #require(try listed.json()["devices"] as? [[String: Any]])
            #expect(devices.map { $0["deviceName"] as? String } == ["Pixel 8"])
            #expect((devices.first?["sessions"] as? [Any])?.count == 3, "the sign-up's session and two sign-ins'")
        }
    }

    typealias Options = MobileBiometricTests.Options
    typealias RegisterBody = MobileBiometricTests.RegisterBody
    typealias AuthenticateBody = MobileBiometricTests.AuthenticateBody

    static func post(_ app: Application, _ path: String, _ body: some Encodable) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(
            .POST, path, headers: .json(bearer: nil), body: ByteBuffer(data: try JSONEncoder().encode(body)))
    }

    static func newDeviceEvents(_ client: HaleClient) async throws -> [SecurityEvent] {
        try await client.securityEvents().filter { $0.type == "new_device_sign_in" }
    }
}
