import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// Where device keys and passkeys meet: the device list names the passkeys made on a device, and a device key or a
/// social identity counts as a way to sign in when the last passkey is deleted.
@Suite("HTTP: device keys and passkeys")
struct DevicePasskeyTests {
    static let settings = ["passkeys.rpId": "localhost", "passkeys.origins": "http://localhost:8080"]

    private struct RegisterBody: Encodable {
        let credential: RegistrationResponseJSON
    }

    private struct Options: Decodable {
        let options: CreationOptions
    }

    /// Registers a passkey with `bearer`; returns its id.
    private func registerPasskey(_ api: DeviceAPI, bearer: String) async throws -> String {
        let optionsResponse = try await api.post("/api/mobile/biometric/register/options", [:], bearer: bearer)
        let options = try api.decode(Options.self, optionsResponse).options
        var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
        let body = try JSONEncoder().encode(RegisterBody(credential: passkey.register(options: options)))
        let verify = try await api.app.testing().sendRequest(
            .POST, "/api/mobile/biometric/register/verify", headers: .json(bearer: bearer), body: ByteBuffer(data: body)
        )
        #expect(verify.status == .ok, "\(verify.body.string)")
        return try #require((try verify.json()["passkey"] as? [String: Any])?["id"] as? String)
    }

    @Test("a passkey made in a device-key session is listed under that device")
    func passkeyOnDevice() async throws {
        try await withHale(settings: Self.settings) { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let client = try DeviceClient(.iOS)
            let deviceId = try await api.register(client, bearer: bearer)
            let access = try api.decode(DeviceAPI.SignedIn.self, try await api.signIn(client)).tokens.accessToken
            let passkeyId = try await registerPasskey(api, bearer: access)
            let listed = try await api.send(.GET, "/api/v1/devices", bearer: bearer).json()
            let device = try #require((listed["devices"] as? [[String: Any]])?.first)
            #expect(device["id"] as? String == deviceId)
            #expect((device["passkeys"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [passkeyId])
        }
    }

    @Test("with an active device key, the last passkey is not the last way to sign in")
    func deviceKeyCountsAsSignInMethod() async throws {
        try await withHale(settings: Self.settings) { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let passkeyId = try await registerPasskey(api, bearer: bearer)
            let deviceId = try await api.register(try DeviceClient(.android), bearer: bearer)
            #expect(try await api.send(.POST, "/api/v1/devices/\(deviceId)/deactivate", bearer: bearer).status == .ok)
            let refused = try await api.send(.DELETE, "/api/mobile/biometric/passkeys/\(passkeyId)", bearer: bearer)
            #expect(try refused.coreError().error.code == "LAST_SIGN_IN_METHOD")
            try await api.register(try DeviceClient(.android), bearer: bearer)
            let deleted = try await api.send(.DELETE, "/api/mobile/biometric/passkeys/\(passkeyId)", bearer: bearer)
            #expect(deleted.status == .ok, "\(deleted.body.string)")
        }
    }

    @Test("with a social identity, the last passkey is not the last way to sign in")
    func socialIdentityCountsAsSignInMethod() async throws {
        let provider = try await FakeSocialProvider.start()
        try await withHale(settings: provider.settings.merging(Self.settings) { $1 }) { app in
            let api = DeviceAPI(app: app)
            let idToken = try provider.googleIDToken(subject: "g-passkey")
            let bearer = try SocialSignInHTTPTests.token(
                of: try await SocialSignInHTTPTests.login(
                    app, SocialSignInHTTPTests.document(provider: "google", token: idToken)))
            let passkeyId = try await registerPasskey(api, bearer: bearer)
            let deleted = try await api.send(.DELETE, "/api/mobile/biometric/passkeys/\(passkeyId)", bearer: bearer)
            #expect(deleted.status == .ok, "\(deleted.body.string)")
        }
        await provider.stop()
    }
}
