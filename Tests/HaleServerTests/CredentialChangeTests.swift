import Foundation
import HaleClient
import HaleTesting
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// Adding or removing a credential, deleting the account and signing out everywhere need the person: a sign-in within
/// `tokens.freshSignInWindow` or a step-up on the session. Any other token, stolen or handed off or made by an
/// operator, is refused with the surface's wording of `FRESH_SIGN_IN_REQUIRED`.
@Suite("HTTP: changing how an account is reached needs a fresh sign-in")
struct CredentialChangeTests {
    static let settings = MobileBiometricTests.settings
    static let stepUpChallenge =
        #"Bearer realm="hale", error="insufficient_user_authentication", "#
        + #"error_description="A more recent sign-in is required", max_age="300""#

    /// The refusal on a route, in its surface's wording, with RFC 9470's challenge.
    static func expectRefused(
        _ response: TestingHTTPResponse, code: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(response.status == .unauthorized, "\(response.body.string)", sourceLocation: sourceLocation)
        #expect(try response.coreError().error.code == code, sourceLocation: sourceLocation)
        #expect(
            response.headers.first(name: .wwwAuthenticate) == stepUpChallenge, sourceLocation: sourceLocation)
    }

    /// The access token a web view gets when the app hands its session over (`POST /api/v1/auth/handoff`).
    static func handOff(_ app: Application, _ token: String) async throws -> String {
        let issued = try await app.testing().sendRequest(.POST, "/api/v1/auth/handoff", headers: .bearer(token))
        let code = try #require(try issued.json()["code"] as? String)
        let redeemed = try await app.testing().sendRequest(
            .POST, "/api/v1/auth/handoff/redeem", headers: .json(), body: .json(#"{"code":"\#(code)"}"#))
        return try #require(try redeemed.json()["accessToken"] as? String)
    }

    /// The passkey sign-up and registration calls of seed 000's app.
    struct Passkeys {
        let app: Application

        struct Options<T: Decodable>: Decodable { let options: T }
        struct StepUpOptions: Decodable {
            let options: RequestOptions
            let ceremony: String
        }
        struct Register: Encodable { let credential: RegistrationResponseJSON }
        struct StepUp: Encodable {
            let ceremony: String
            let credential: AuthenticationResponseJSON
        }

        func post(_ path: String, _ body: some Encodable, bearer: String?) async throws -> TestingHTTPResponse {
            try await app.testing().sendRequest(
                .POST, path, headers: .json(bearer: bearer), body: ByteBuffer(data: try JSONEncoder().encode(body)))
        }

        func registrationOptions(bearer: String) async throws -> TestingHTTPResponse {
            try await post("/api/mobile/biometric/register/options", ["platform": "ios"], bearer: bearer)
        }

        /// Adds a passkey with `bearer`, expecting success.
        func add(_ passkey: inout SoftwarePasskey, bearer: String) async throws {
            let options = try await registrationOptions(bearer: bearer)
            #expect(options.status == .ok, "\(options.body.string)")
            let creation = try JSONDecoder().decode(Options<CreationOptions>.self, from: Data(buffer: options.body))
            let verified = try await post(
                "/api/mobile/biometric/register/verify",
                Register(credential: passkey.register(options: creation.options)),
                bearer: bearer)
            #expect(verified.status == .ok, "\(verified.body.string)")
        }

        /// Runs a step-up ceremony on the session of `bearer` with `passkey`; the step-up's answer.
        func stepUp(_ passkey: inout SoftwarePasskey, bearer: String) async throws -> TestingHTTPResponse {
            let options = try await post("/api/v1/auth/step-up/options", [String: String](), bearer: bearer)
            guard options.status == .ok else { return options }
            let ceremony = try JSONDecoder().decode(StepUpOptions.self, from: Data(buffer: options.body))
            return try await post(
                "/api/v1/auth/step-up",
                StepUp(ceremony: ceremony.ceremony, credential: passkey.assert(options: ceremony.options)),
                bearer: bearer)
        }
    }

    @Test(
        "the takeover: an operator's, a stale or a handed-off token adds and removes nothing; a fresh sign-in adds",
        arguments: TestDatabase.available)
    func takeover(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock, settings: Self.settings) { app in
            let devices = DeviceAPI(app: app)
            let passkeys = Passkeys(app: app)
            let (account, operatorToken) = try await makeAccount(app)
            let phone = try DeviceClient(.iOS)
            let phoneID = try await devices.register(phone, bearer: operatorToken)
            let signedIn = try devices.decode(DeviceAPI.SignedIn.self, try await devices.signIn(phone))
            let handedOff = try await Self.handOff(app, signedIn.tokens.accessToken)
            time.advance(.seconds(301))
            let stale = try await app.hale.sessions.refresh(signedIn.tokens.refreshToken).accessToken

            let attacker = try DeviceClient(.android)
            for token in [operatorToken, stale, handedOff] {
                try Self.expectRefused(
                    try await devices.registrationChallenge(attacker, bearer: token), code: "TOKEN_EXPIRED")
                try Self.expectRefused(
                    try await passkeys.registrationOptions(bearer: token), code: "auth/requires-recent-login")
                try Self.expectRefused(
                    try await devices.send(.POST, "/api/v1/devices/\(phoneID)/deactivate", bearer: token),
                    code: "TOKEN_EXPIRED")
                for (method, path) in [(HTTPMethod.DELETE, "/api/v1/account"), (.POST, "/api/v1/auth/logout-all")] {
                    let response = try await app.testing().sendRequest(method, path, headers: .bearer(token))
                    try Self.expectRefused(response, code: "FRESH_SIGN_IN_REQUIRED")
                }
            }
            #expect(
                try await app.hale.devices.list(for: account.id).map { $0.device.id.description.lowercased() }
                    == [phoneID.lowercased()])
            #expect(try await app.hale.passkeys.list(for: account.id).isEmpty)
            #expect(try await app.hale.accounts.find(account.id) != nil)

            // The phone signs in again with its key: a fresh sign-in, which may add the next device.
            let again = try devices.decode(DeviceAPI.SignedIn.self, try await devices.signIn(phone))
            try await devices.register(try DeviceClient(.android), bearer: again.tokens.accessToken)
            #expect(try await app.hale.devices.list(for: account.id).count == 2)
        }
    }

    @Test("an account with no credential enrols its first with its own token, and only its first")
    func firstCredential() async throws {
        try await withHale(settings: Self.settings) { app in
            let devices = DeviceAPI(app: app)
            let (account, operatorToken) = try await makeAccount(app)
            try await devices.register(try DeviceClient(.iOS), bearer: operatorToken)
            try Self.expectRefused(
                try await devices.registrationChallenge(try DeviceClient(.android), bearer: operatorToken),
                code: "TOKEN_EXPIRED")
            try Self.expectRefused(
                try await Passkeys(app: app).registrationOptions(bearer: operatorToken),
                code: "auth/requires-recent-login")
            #expect(try await app.hale.devices.list(for: account.id).count == 1)
        }
    }

    @Test("a challenge answered after the window is refused at verify, though its challenge was issued in time")
    func verifyChecksAgain() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: Self.settings) { app in
            let devices = DeviceAPI(app: app)
            let (account, _) = try await makeAccount(app)
            let fresh = try await freshSignIn(app, account.id)
            try await devices.register(try DeviceClient(.iOS), bearer: fresh)
            let second = try DeviceClient(.android)
            let issued = try await devices.registrationChallenge(second, bearer: fresh)
            let challenge = try devices.decode(DeviceAPI.Challenge.self, issued)
            time.advance(.seconds(301))
            let verified = try await devices.post(
                "/api/v1/devices/register/verify",
                ["sessionId": challenge.sessionId, "signedChallenge": try second.sign(challenge.challenge)],
                bearer: fresh)
            try Self.expectRefused(verified, code: "TOKEN_EXPIRED")
            #expect(try await app.hale.devices.list(for: account.id).count == 1)
        }
    }

    @Test(
        "a step-up with the account's passkey makes an old session fresh for the window, audited",
        arguments: TestDatabase.available)
    func stepUp(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock, settings: Self.settings) { app in
            let passkeys = Passkeys(app: app)
            let (account, _) = try await makeAccount(app)
            let session = try await freshSignIn(app, account.id)
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await passkeys.add(&passkey, bearer: session)
            time.advance(.seconds(301))
            try Self.expectRefused(
                try await app.testing().sendRequest(.POST, "/api/v1/auth/logout-all", headers: .bearer(session)),
                code: "FRESH_SIGN_IN_REQUIRED")

            let steppedUp = try await passkeys.stepUp(&passkey, bearer: session)
            #expect(steppedUp.status == .ok, "\(steppedUp.body.string)")
            #expect(
                try steppedUp.json()["freshUntil"] as? String
                    == ISO8601.string(time.clock.now().addingTimeInterval(300)))
            let events = try await app.hale.audit.events(of: account.id).map(\.eventType)
            #expect(events.contains("stepped_up"))
            var second = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await passkeys.add(&second, bearer: session)
            #expect(try await app.hale.passkeys.list(for: account.id).count == 2)

            time.advance(.seconds(301))
            try Self.expectRefused(
                try await passkeys.registrationOptions(bearer: session), code: "auth/requires-recent-login")
        }
    }

    @Test("another account's passkey does not step a session up")
    func stepUpWithAnotherAccountsPasskey() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: Self.settings) { app in
            let passkeys = Passkeys(app: app)
            let (mine, _) = try await makeAccount(app)
            let (theirs, _) = try await makeAccount(app, email: "other@example.com")
            let session = try await freshSignIn(app, mine.id)
            var myPasskey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await passkeys.add(&myPasskey, bearer: session)
            var theirPasskey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await passkeys.add(&theirPasskey, bearer: try await freshSignIn(app, theirs.id))
            time.advance(.seconds(301))
            let response = try await passkeys.stepUp(&theirPasskey, bearer: session)
            #expect(response.status == .unauthorized)
            #expect(try response.coreError().error.code == "PASSKEY_AUTHENTICATION_FAILED")
            try Self.expectRefused(
                try await app.testing().sendRequest(.DELETE, "/api/v1/account", headers: .bearer(session)),
                code: "FRESH_SIGN_IN_REQUIRED")
        }
    }

    @Test("only a session's own token steps up: an operator's token and a handed-off one are refused with 403")
    func stepUpNeedsASession() async throws {
        try await withHale(settings: Self.settings) { app in
            let (account, operatorToken) = try await makeAccount(app)
            let session = try await freshSignIn(app, account.id)
            let handedOff = try await Self.handOff(app, session)
            for token in [operatorToken, handedOff] {
                let response = try await app.testing().sendRequest(
                    .POST, "/api/v1/auth/step-up/options", headers: .json(bearer: token), body: .json("{}"))
                #expect(response.status == .forbidden)
                #expect(try response.coreError().error.code == "STEP_UP_UNAVAILABLE")
            }
        }
    }

    @Test("the SDK: a refused change throws freshSignInRequired, and after stepUp(with:) the same call succeeds")
    func sdkStepUp() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: Self.settings) { app in
            let (account, _) = try await makeAccount(app)
            try await withServedClient(app, token: try await freshSignIn(app, account.id)) { client in
                let phone = SoftwarePasskeyAuthenticator(
                    SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080"))
                _ = try await client.addPasskey(with: phone)
                time.advance(.seconds(301))
                let laptop = SoftwarePasskeyAuthenticator(
                    SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080"))
                await #expect(throws: HaleClientError.freshSignInRequired(maxAge: .seconds(300))) {
                    _ = try await client.addPasskey(with: laptop)
                }
                let freshUntil = try await client.stepUp(with: phone)
                #expect(abs(freshUntil.timeIntervalSince(time.clock.now().addingTimeInterval(300))) < 1)
                _ = try await client.addPasskey(with: laptop)
                #expect(try await client.passkeys().count == 2)
            }
        }
    }

    @Test(
        "signing out everywhere can remove the credentials added in the last hours, but the asking device's",
        arguments: TestDatabase.available)
    func signOutRemovingRecentCredentials(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock, settings: Self.settings) { app in
            let devices = DeviceAPI(app: app)
            let passkeys = Passkeys(app: app)
            let (account, _) = try await makeAccount(app)
            let phone = try DeviceClient(.iOS)
            try await devices.register(phone, bearer: try await freshSignIn(app, account.id))
            time.advance(.seconds(2 * 86_400))

            // Planted a day and a half after: a device key and a passkey from a session of no device of the owner.
            let planted = try DeviceClient(.android)
            let intruder = try await freshSignIn(app, account.id)
            try await devices.register(planted, bearer: intruder)
            var plantedPasskey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await passkeys.add(&plantedPasskey, bearer: intruder)
            // The owner's phone signs in and adds a passkey of its own, just now.
            let owner = try devices.decode(DeviceAPI.SignedIn.self, try await devices.signIn(phone)).tokens.accessToken
            var ownPasskey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await passkeys.add(&ownPasskey, bearer: owner)

            for bad in [
                #"{"removeCredentialsAddedWithinHours":0}"#, #"{"removeCredentialsAddedWithinHours":721}"#,
                #"{"removeCredentials":24}"#,
            ] {
                let refused = try await app.testing().sendRequest(
                    .POST, "/api/v1/auth/logout-all", headers: .json(bearer: owner), body: .json(bad))
                #expect(refused.status == .badRequest, "\(bad)")
            }
            let response = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/logout-all", headers: .json(bearer: owner),
                body: .json(#"{"removeCredentialsAddedWithinHours":24}"#))
            #expect(response.status == .ok, "\(response.body.string)")

            #expect(
                try await devices.signIn(planted).status == .notFound,
                "the planted key is revoked: its fingerprint has none")
            #expect(try await devices.signIn(phone).status == .ok, "the asking device's older key stays")
            let left = try await app.hale.passkeys.list(for: account.id)
            #expect(left.count == 1, "the planted passkey is gone, the phone's own stays")
            let event = try #require(
                try await app.hale.audit.events(of: account.id).first { $0.eventType == "signed_out_everywhere" })
            #expect(event.details.contains(#""deviceKeys":"1""#) && event.details.contains(#""passkeys":"1""#))
        }
    }
}
