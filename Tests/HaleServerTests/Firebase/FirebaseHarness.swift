import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// Seed 000's app with Firebase: Hale pointed at a fake securetoken certificate set and the project's service
/// account, and the calls the app makes with its Firebase ID token.
struct FirebaseHarness {
    let app: Application
    let firebase: FakeFirebase

    static let passkeySettings = ["passkeys.rpId": "localhost", "passkeys.origins": "http://localhost:8080"]

    /// Runs `body` with Hale and a fresh fake; `settings` are applied last, so a test can drop a Firebase setting
    /// by setting it to "".
    static func run(
        on database: TestDatabase = .sqlite, settings: [String: String] = [:],
        _ body: (FirebaseHarness) async throws -> Void
    ) async throws {
        let firebase = try await FakeFirebase.start()
        do {
            let all = passkeySettings.merging(firebase.settings) { $1 }.merging(settings) { $1 }
            try await withHale(on: database, settings: all) { app in
                try await body(FirebaseHarness(app: app, firebase: firebase))
            }
        } catch {
            await firebase.stop()
            throw error
        }
        await firebase.stop()
    }

    func post(_ path: String, _ body: some Encodable, bearer: String? = nil) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(
            .POST, path, headers: .json(bearer: bearer), body: ByteBuffer(data: try JSONEncoder().encode(body)))
    }

    func get(_ path: String, bearer: String) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(.GET, path, headers: .bearer(bearer))
    }

    struct Options<T: Decodable>: Decodable {
        let options: T
        let uid: String?
    }

    struct RegisterBody: Encodable {
        let credential: RegistrationResponseJSON
        let deviceInfo: HaleServer.PasskeyDevice?
    }

    struct AuthenticateBody: Encodable {
        let credential: AuthenticationResponseJSON
        let uid: String
    }

    /// Registers a passkey as seed 000's app does: options and verify, each with the Firebase ID token as bearer.
    func registerPasskey(
        bearer: String, passkey: inout SoftwarePasskey, sourceLocation: SourceLocation = #_sourceLocation
    )
        async throws
    {
        let device = ["platform": "ios", "osVersion": "18.1", "deviceName": "iPhone"]
        let options = try await post("/api/mobile/biometric/register/options", device, bearer: bearer)
        #expect(options.status == .ok, "\(options.body.string)", sourceLocation: sourceLocation)
        let creation = try JSONDecoder().decode(Options<CreationOptions>.self, from: Data(buffer: options.body))
        let verify = try await post(
            "/api/mobile/biometric/register/verify",
            RegisterBody(
                credential: passkey.register(options: creation.options),
                deviceInfo: PasskeyDevice(platform: "ios", osVersion: "18.1", deviceName: "iPhone")),
            bearer: bearer)
        #expect(verify.status == .ok, "\(verify.body.string)", sourceLocation: sourceLocation)
    }

    /// Signs in with the passkey, as the app does: no bearer, the ceremony's `uid` sent back.
    func signIn(passkey: inout SoftwarePasskey) async throws -> TestingHTTPResponse {
        let options = try JSONDecoder().decode(
            Options<RequestOptions>.self,
            from: Data(buffer: try await post("/api/mobile/biometric/authenticate/options", ["email": "a@b.co"]).body))
        return try await post(
            "/api/mobile/biometric/authenticate/verify",
            AuthenticateBody(credential: passkey.assert(options: options.options), uid: try #require(options.uid)))
    }

    /// The account a seed 000 route sees for `bearer`.
    func account(bearer: String) async throws -> AccountID {
        try await app.hale.bearerTokens.verify(bearer, acceptingFirebaseIDTokens: true).accountId
    }

    /// How many accounts exist.
    func accountCount() async throws -> Int {
        try await app.hale.database.sql.raw("SELECT COUNT(*) AS count FROM accounts").first(
            decodingColumn: "count", as: Int.self) ?? 0
    }

    /// How many Firebase links `uid` has.
    func linkCount(uid: String) async throws -> Int {
        try await app.hale.database.sql.raw(
            "SELECT COUNT(*) AS count FROM social_identities WHERE provider = 'firebase' AND subject = \(bind: uid)"
        ).first(decodingColumn: "count", as: Int.self) ?? 0
    }
}
