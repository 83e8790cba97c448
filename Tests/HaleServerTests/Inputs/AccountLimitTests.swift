import Crypto
import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// What one account may own: a 409 `LIMIT_REACHED` naming the cap, or for what the app cannot delete (push
/// registrations, App Attest keys), the oldest make room.
@Suite("Per-account limits")
struct AccountLimitTests {
    static let passkeySettings = [
        "passkeys.rpId": "localhost", "passkeys.origins": "http://localhost:8080", "accountLimits.passkeys": "2",
    ]

    static func registerPasskey(_ app: Application, _ token: String) async throws -> TestingHTTPResponse {
        let options = try await app.testing().sendRequest(
            .POST, "/api/mobile/biometric/register/options", headers: .json(bearer: token), body: .json("{}"))
        guard options.status == .ok else { return options }
        let creation = try JSONDecoder().decode(PasskeyInputTests.Envelope.self, from: Data(buffer: options.body))
        var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
        return try await app.testing().sendRequest(
            .POST, "/api/mobile/biometric/register/verify", headers: .json(bearer: token),
            body: .json(
                try PasskeyInputTests.json(
                    PasskeyInputTests.VerifyBody(
                        credential: passkey.register(options: creation.options), deviceInfo: nil))))
    }

    @Test(
        "a third passkey is refused when the cap is two, and deleting one makes room", arguments: TestDatabase.available
    )
    func passkeys(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.passkeySettings) { app in
            let (account, token) = try await makeSignedInAccount(app)
            for _ in 0..<2 { #expect(try await Self.registerPasskey(app, token).status == .ok) }
            let third = try await Self.registerPasskey(app, token)
            #expect(third.status == .conflict)
            let error = try third.coreError().error
            #expect(error.code == "LIMIT_REACHED")
            #expect(
                error.message == "This account has 2 passkeys, the most it may have (2); delete one to add another.")
            let first = try #require(try await app.hale.passkeys.list(for: account.id).first)
            try await app.hale.passkeys.delete(first.id, of: account.id, confirmed: true)
            #expect(try await Self.registerPasskey(app, token).status == .ok)
        }
    }

    @Test("ceremonies opened before the cap was reached cannot pass it")
    func passkeyCeremoniesInFlight() async throws {
        try await withHale(settings: Self.passkeySettings) { app in
            let (_, token) = try await makeSignedInAccount(app)
            #expect(try await Self.registerPasskey(app, token).status == .ok)
            var answers: [String] = []
            for _ in 0..<2 {
                let options = try await app.testing().sendRequest(
                    .POST, "/api/mobile/biometric/register/options", headers: .json(bearer: token), body: .json("{}"))
                let creation = try JSONDecoder().decode(
                    PasskeyInputTests.Envelope.self, from: Data(buffer: options.body))
                var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
                answers.append(
                    try PasskeyInputTests.json(
                        PasskeyInputTests.VerifyBody(
                            credential: passkey.register(options: creation.options), deviceInfo: nil)))
            }
            var statuses: [HTTPStatus] = []
            for answer in answers {
                statuses.append(
                    try await app.testing().sendRequest(
                        .POST, "/api/mobile/biometric/register/verify", headers: .json(bearer: token),
                        body: .json(answer)
                    ).status)
            }
            #expect(statuses == [.ok, .conflict])
        }
    }

    @Test("a third device is refused when the cap is two, deactivated ones counting", arguments: TestDatabase.available)
    func devices(database: TestDatabase) async throws {
        try await withHale(on: database, settings: ["accountLimits.devices": "2"]) { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let first = try await api.register(try DeviceClient(.iOS), bearer: bearer)
            try await api.register(try DeviceClient(.android), bearer: bearer)
            #expect(try await api.send(.POST, "/api/v1/devices/\(first)/deactivate", bearer: bearer).status == .ok)
            let third = try await api.registrationChallenge(try DeviceClient(.iOS), bearer: bearer)
            #expect(third.status == .conflict)
            let error = try third.coreError().error
            #expect(error.code == "LIMIT_REACHED")
            #expect(error.message == "This account has 2 devices, the most it may have (2); delete one to add another.")
            #expect(try await api.send(.DELETE, "/api/v1/devices/\(first)", bearer: bearer).status == .ok)
            try await api.register(try DeviceClient(.iOS), bearer: bearer)
        }
    }

    @Test("a registration started before the cap was reached cannot pass it")
    func deviceRegistrationsInFlight() async throws {
        try await withHale(settings: ["accountLimits.devices": "1"]) { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let client = try DeviceClient(.iOS)
            let pending = try api.decode(
                DeviceAPI.Challenge.self, try await api.registrationChallenge(client, bearer: bearer))
            try await api.register(try DeviceClient(.android), bearer: bearer)
            let late = try await api.post(
                "/api/v1/devices/register/verify",
                ["sessionId": pending.sessionId, "signedChallenge": try client.sign(pending.challenge)], bearer: bearer)
            #expect(late.status == .conflict)
            #expect(try late.coreError().error.code == "LIMIT_REACHED")
        }
    }

    @Test(
        "a third open fitness challenge is refused when the cap is two; ended ones do not count",
        arguments: TestDatabase.available)
    func fitnessChallenges(database: TestDatabase) async throws {
        typealias HTTP = FitnessChallengeHTTP
        try await withHale(
            on: database, clock: HaleClock { HTTP.start }, settings: ["accountLimits.fitnessChallenges": "2"]
        ) { app in
            let (_, token) = try await HTTP.account(app)
            let ended = HTTP.body()
            let open = HTTP.body(start: "2025-11-05", end: "2025-11-20")
            for body in [ended, ended, open, open] {
                #expect(try await HTTP.create(app, token, body).status == .created)
            }
            let third = try await HTTP.create(app, token, open)
            #expect(third.status == .conflict)
            let error = try third.coreError().error
            #expect(error.code == "LIMIT_REACHED")
            #expect(
                error.message
                    == "This account has created 2 fitness challenges that have not ended, the most it may have (2); create another once one ends."
            )
        }
    }

    @Test("social sign-in keeps an account's 20 newest push registrations", arguments: TestDatabase.available)
    func pushRegistrations(database: TestDatabase) async throws {
        try await SocialSignInHTTPTests.withProvider(on: database) { app, provider in
            for index in 0..<22 {
                let response = try await SocialSignInHTTPTests.login(
                    app,
                    try PushTokenInputTests.document(
                        idToken: try provider.googleIDToken(subject: "g-1"), deviceToken: "fcm-\(index)"))
                #expect(response.status == .ok)
            }
            let rows = try await app.hale.database.sql.raw("SELECT token FROM push_registrations").all()
            let tokens = Set(try rows.map { try $0.decode(column: "token", as: String.self) })
            #expect(tokens == Set((2..<22).map { "fcm-\($0)" }))
        }
    }

    @Test("an account keeps its 10 newest App Attest keys", arguments: TestDatabase.available)
    func appAttestKeys(database: TestDatabase) async throws {
        let authority = try SoftwareAppAttester()
        var settings = SoftwarePlayIntegrity().settings
        settings["apps.apple"] = authority.appID
        settings["appAttest.environment"] = "development"
        settings["appAttest.rootCertificate"] = try authority.rootPEM
        let time = TestClock(Date())
        try await withHale(on: database, clock: time.clock, settings: settings) { app in
            let (account, token) = try await makeSignedInAccount(app)
            var registered: [String] = []
            for _ in 0..<11 {
                let keyID = try await authority.generateKey()
                let nonce = try #require(
                    try await app.testing().sendRequest(.GET, "/health/attestation-nonce", headers: .bearer(token))
                        .json()["nonce"] as? String)
                let attestation = try await authority.attestKey(
                    keyID, clientDataHash: Data(SHA256.hash(data: Data(nonce.utf8))))
                let body: [String: Any] = [
                    "keyId": keyID, "nonce": nonce, "attestation": attestation.base64EncodedString(),
                ]
                let response = try await app.testing().sendRequest(
                    .POST, "/health/attestation-keys", headers: .json(bearer: token),
                    body: ByteBuffer(data: try JSONSerialization.data(withJSONObject: body)))
                #expect(response.status == .created, "\(response.body.string)")
                registered.append(keyID)
                time.advance(.seconds(1))
            }
            let rows = try await app.hale.database.sql.raw(
                "SELECT key_id FROM app_attest_keys WHERE account_id = \(bind: account.id)"
            ).all()
            let kept = Set(try rows.map { try $0.decode(column: "key_id", as: String.self) })
            #expect(kept == Set(registered.dropFirst()))
        }
    }
}
