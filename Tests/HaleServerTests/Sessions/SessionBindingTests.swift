import ByteEncoding
import Crypto
import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// `tokens.bindToAttestation`: a session bound to an App Attest key refreshes only with a fresh assertion by that
/// key, over the nonce its last answer gave and the refresh's body; anything else ends it.
@Suite("Sessions bound to an attested app instance")
struct SessionBindingTests {
    static let attested = DevelopmentAttestationTests.on.merging(["tokens.bindToAttestation": "attested"]) { $1 }
    static let required = DevelopmentAttestationTests.on.merging(["tokens.bindToAttestation": "required"]) { $1 }

    /// One account of a running Hale, its sessions, and the app instances (App Attest keys) it registered.
    struct Harness {
        let app: Application
        let account: AccountID

        /// An App Attest key of a new app instance, registered through the session of `pair`.
        struct Instance {
            let attester: SoftwareAppAttester
            let keyID: String
        }

        func start(on device: DeviceID? = nil) async throws -> TokenPair {
            try await app.hale.sessions.start(account: account, device: device, signInMethod: "test", rememberMe: false)
        }

        func instance(registeredBy pair: TokenPair) async throws -> Instance {
            let client = DevelopmentAttestationTests.Client(app: app, token: pair.accessToken)
            let attester = try await client.attester()
            let (keyID, response) = try await client.register(attester)
            #expect(response.status == .created, "\(response.body.string)")
            return Instance(attester: attester, keyID: keyID)
        }

        /// `POST /api/v1/auth/refresh` with `token`; attested by `instance` over `nonce` when given.
        func refresh(
            _ token: String, nonce: String? = nil, by instance: Instance? = nil, path: String = "/api/v1/auth/refresh"
        ) async throws -> TestingHTTPResponse {
            var headers = HTTPHeaders([("Content-Type", "application/json")])
            if let instance, let nonce {
                headers.add(contentsOf: try await attestation(of: token, nonce: nonce, by: instance))
            }
            return try await send(token, headers: headers, path: path)
        }

        /// The `X-Attestation-*` headers of a refresh of `token`, by `instance` over `nonce`.
        func attestation(of token: String, nonce: String, by instance: Instance) async throws -> HTTPHeaders {
            let requestHash = HealthData.requestHash(nonce: nonce, bodyDigest: SHA256.hash(data: Self.body(token)))
            let assertion = try await instance.attester.generateAssertion(
                instance.keyID, clientDataHash: Data(SHA256.hash(data: Data(requestHash.utf8))))
            return HTTPHeaders([
                ("X-Attestation-Platform", "ios"), ("X-Attestation-Nonce", nonce),
                ("X-Attestation-Token", assertion.base64EncodedString()),
            ])
        }

        func send(_ token: String, headers: HTTPHeaders, path: String = "/api/v1/auth/refresh") async throws
            -> TestingHTTPResponse
        {
            try await app.testing().sendRequest(.POST, path, headers: headers, body: ByteBuffer(data: Self.body(token)))
        }

        static func body(_ token: String) -> Data {
            Data(#"{"refreshToken":"\#(token)"}"#.utf8)
        }

        func session(_ pair: TokenPair) async throws -> HaleServer.Session {
            try #require(try await app.hale.sessions.find(pair.sessionId))
        }

        func confirmation(of accessToken: String) async throws -> String? {
            try await app.hale.accessTokens.verify(accessToken).cnf?.jkt
        }

        func events() async throws -> [String] {
            try await app.hale.audit.events(of: account).map(\.eventType)
        }

        /// The details of the newest `bound_refresh_refused` event: why a bound refresh was refused.
        func refusal() async throws -> String? {
            try await app.hale.audit.events(of: account).first { $0.eventType == "bound_refresh_refused" }?.details
        }
    }

    static func withHarness(
        on database: TestDatabase = .sqlite, clock: HaleClock = .system, settings: [String: String] = attested,
        _ body: (Harness) async throws -> Void
    ) async throws {
        try await withHale(on: database, clock: clock, settings: settings) { app in
            let (account, _) = try await makeAccount(app)
            try await body(Harness(app: app, account: account.id))
        }
    }

    /// Binds a new session to a new instance by its first refresh; returns the answer and the instance.
    static func bound(_ harness: Harness) async throws -> (answer: [String: Any], instance: Harness.Instance) {
        let pair = try await harness.start()
        let instance = try await harness.instance(registeredBy: pair)
        let response = try await harness.refresh(pair.refreshToken, nonce: pair.attestationNonce, by: instance)
        #expect(response.status == .ok, "\(response.body.string)")
        return (try response.json(), instance)
    }

    @Test("off: no nonce, no cnf, and a refresh's attestation headers are not needed")
    func off() async throws {
        try await Self.withHarness(settings: DevelopmentAttestationTests.on) { harness in
            let pair = try await harness.start()
            #expect(pair.attestationNonce == nil)
            #expect(try await harness.confirmation(of: pair.accessToken) == nil)
            let response = try await harness.refresh(pair.refreshToken)
            #expect(response.status == .ok)
            #expect(try response.json()["attestationNonce"] == nil)
        }
    }

    @Test("off: a refresh that carries a valid assertion over the session's nonce still binds nothing")
    func offIgnoresAttestations() async throws {
        try await Self.withHarness(settings: DevelopmentAttestationTests.on) { harness in
            let pair = try await harness.start()
            let instance = try await harness.instance(registeredBy: pair)
            let secret = try #require(
                try await harness.app.hale.database.sql.select().column("token_secret").from("sessions")
                    .where("id", .equal, pair.sessionId).first(decodingColumn: "token_secret", as: String.self))
            let nonce = SessionBinding.nonce(for: pair.refreshToken, secret: secret)
            let response = try await harness.refresh(pair.refreshToken, nonce: nonce, by: instance)
            #expect(response.status == .ok)
            #expect(try await harness.session(pair).attestationKeyId == nil)
            #expect(try await harness.confirmation(of: try #require(response.json()["accessToken"] as? String)) == nil)
        }
    }

    @Test(
        "a refresh proving a key binds the session: its access tokens name the key as cnf.jkt, each answer a new nonce",
        arguments: TestDatabase.available)
    func bindsOnAProvedRefresh(database: TestDatabase) async throws {
        try await Self.withHarness(on: database) { harness in
            let pair = try await harness.start()
            #expect(pair.attestationNonce != nil, "every answer carries the next refresh's nonce")
            #expect(try await harness.confirmation(of: pair.accessToken) == nil, "not bound yet")
            let instance = try await harness.instance(registeredBy: pair)
            let response = try await harness.refresh(pair.refreshToken, nonce: pair.attestationNonce, by: instance)
            #expect(response.status == .ok, "\(response.body.string)")
            let answer = try response.json()
            let session = try await harness.session(pair)
            #expect(session.attestationKeyId == instance.keyID)
            let jkt = try await harness.confirmation(of: try #require(answer["accessToken"] as? String))
            #expect(jkt == session.attestationKeyThumbprint && jkt != nil)
            let next = try #require(answer["attestationNonce"] as? String)
            #expect(next != pair.attestationNonce)
            let again = try await harness.refresh(
                try #require(answer["refreshToken"] as? String), nonce: next, by: instance)
            #expect(again.status == .ok, "a bound session refreshes with each fresh assertion")
        }
    }

    @Test("introspection answers a bound session's access token with its cnf, as the token carries it")
    func introspection() async throws {
        try await Self.withHarness { harness in
            let (answer, _) = try await Self.bound(harness)
            let accessToken = try #require(answer["accessToken"] as? String)
            let introspection = TokenIntrospection(bearerTokens: harness.app.hale.bearerTokens)
            let active = try #require(try await introspection.introspect(accessToken))
            #expect(active.confirmationKey != nil)
            #expect(active.confirmationKey == (try await harness.confirmation(of: accessToken)))
            #expect(IntrospectionResponse(active).cnf?.jkt == active.confirmationKey)
        }
    }

    @Test("a bound session refreshed with a Play Integrity token, which proves no App Attest key, is refused")
    func otherPlatform() async throws {
        try await Self.withHarness { harness in
            let (answer, _) = try await Self.bound(harness)
            let token = try #require(answer["refreshToken"] as? String)
            let headers = HTTPHeaders([
                ("Content-Type", "application/json"), ("X-Attestation-Platform", "android"),
                ("X-Attestation-Nonce", try #require(answer["attestationNonce"] as? String)),
                ("X-Attestation-Token", "eyJhbGciOiJBMjU2S1ciLCJlbmMiOiJBMjU2R0NNIn0.e30.e30.e30.e30"),
            ])
            let response = try await harness.send(token, headers: headers)
            #expect(response.status == .unauthorized)
            #expect(try response.coreError().error.code == "BINDING_REFUSED")
            let refusal = try #require(try await harness.refusal())
            #expect(refusal.contains("not an App Attest assertion"))
        }
    }

    @Test(
        "a bound session's refresh without an attestation is 401 BINDING_REFUSED, ends the session, and is audited",
        arguments: TestDatabase.available)
    func refusedWithoutAttestation(database: TestDatabase) async throws {
        try await Self.withHarness(on: database) { harness in
            let (answer, instance) = try await Self.bound(harness)
            let token = try #require(answer["refreshToken"] as? String)
            let stolen = try await harness.refresh(token)
            #expect(stolen.status == .unauthorized)
            #expect(try stolen.coreError().error.code == "BINDING_REFUSED")
            #expect(try await harness.app.hale.sessions.active(of: harness.account).isEmpty, "the session ended")
            let owner = try await harness.refresh(token, nonce: answer["attestationNonce"] as? String, by: instance)
            #expect(owner.status == .unauthorized, "its own app is signed out too, and signs in again")
            let accessToken = try #require(answer["accessToken"] as? String)
            await #expect(throws: HaleError.invalidToken) {
                try await harness.app.hale.bearerTokens.verify(accessToken)
            }
            let refusal = try #require(try await harness.refusal())
            #expect(refusal.contains("no attestation"))
        }
    }

    @Test("a refresh token replayed from another app instance, even the account's own, is refused and revokes")
    func anotherInstance() async throws {
        try await Self.withHarness { harness in
            let (answer, _) = try await Self.bound(harness)
            let other = try await harness.instance(registeredBy: try await harness.start())
            let token = try #require(answer["refreshToken"] as? String)
            let replayed = try await harness.refresh(token, nonce: answer["attestationNonce"] as? String, by: other)
            #expect(replayed.status == .unauthorized)
            #expect(try replayed.coreError().error.code == "BINDING_REFUSED")
            #expect(
                try await harness.session(try await Self.pair(of: answer, harness)).revokeReason == "binding_refused")
        }
    }

    @Test("an assertion over another nonce is refused and revokes")
    func wrongNonce() async throws {
        try await Self.withHarness { harness in
            let (answer, instance) = try await Self.bound(harness)
            let token = try #require(answer["refreshToken"] as? String)
            let response = try await harness.refresh(token, nonce: "not-the-nonce", by: instance)
            #expect(response.status == .unauthorized)
            #expect(try await harness.events().filter { $0 == "bound_refresh_refused" }.count == 1)
        }
    }

    @Test("within the grace period a retry needs a fresh assertion too, and gets the same successor")
    func graceRetry() async throws {
        // Time stands still, so the retry is within the grace period however slow the machine.
        try await Self.withHarness(clock: TestClock(Date()).clock) { harness in
            let (answer, instance) = try await Self.bound(harness)
            let token = try #require(answer["refreshToken"] as? String)
            let nonce = answer["attestationNonce"] as? String
            let first = try await harness.refresh(token, nonce: nonce, by: instance)
            #expect(first.status == .ok)
            let retry = try await harness.refresh(token, nonce: nonce, by: instance)
            #expect(retry.status == .ok, "\(retry.body.string)")
            #expect(try retry.json()["refreshToken"] as? String == (try first.json()["refreshToken"] as? String))
            #expect(
                try retry.json()["attestationNonce"] as? String == (try first.json()["attestationNonce"] as? String))
            let thief = try await harness.refresh(token)
            #expect(thief.status == .unauthorized, "a retry without the key is a thief's, even within the grace")
        }
    }

    @Test("one assertion sent twice, as a replay within the grace period would, counts once: the second ends it")
    func replayedAssertion() async throws {
        try await Self.withHarness(clock: TestClock(Date()).clock) { harness in
            let (answer, instance) = try await Self.bound(harness)
            let token = try #require(answer["refreshToken"] as? String)
            var headers = HTTPHeaders([("Content-Type", "application/json")])
            headers.add(
                contentsOf: try await harness.attestation(
                    of: token, nonce: try #require(answer["attestationNonce"] as? String), by: instance))
            #expect(try await harness.send(token, headers: headers).status == .ok)
            let replayed = try await harness.send(token, headers: headers)
            #expect(replayed.status == .unauthorized)
            #expect(try replayed.coreError().error.code == "BINDING_REFUSED")
        }
    }

    @Test("required: an unbound session's refresh without an attestation is refused and left open; with one, bound")
    func required() async throws {
        try await Self.withHarness(settings: Self.required) { harness in
            let pair = try await harness.start()
            let refused = try await harness.refresh(pair.refreshToken)
            #expect(refused.status == .unauthorized)
            #expect(try refused.coreError().error.code == "ATTESTATION_REQUIRED")
            #expect(try await harness.session(pair).revokedAt == nil)
            let instance = try await harness.instance(registeredBy: pair)
            let bound = try await harness.refresh(pair.refreshToken, nonce: pair.attestationNonce, by: instance)
            #expect(bound.status == .ok, "\(bound.body.string)")
            #expect(try await harness.session(pair).attestationKeyId == instance.keyID)
        }
    }

    @Test(
        "attested: an unbound session refreshes as before, and a bad attestation binds nothing",
        arguments: [false, true])
    func unboundStaysBearer(sendsBadAttestation: Bool) async throws {
        try await Self.withHarness { harness in
            let pair = try await harness.start()
            let instance = try await harness.instance(registeredBy: pair)
            let response =
                sendsBadAttestation
                ? try await harness.refresh(pair.refreshToken, nonce: "stale", by: instance)
                : try await harness.refresh(pair.refreshToken)
            #expect(response.status == .ok)
            #expect(try await harness.session(pair).attestationKeyId == nil)
        }
    }

    @Test("a session opened on a device with an attested key is bound from its start, on seed 002's refresh too")
    func boundFromTheStart() async throws {
        try await Self.withHarness { harness in
            let device = DeviceID.random()
            let instance = try await harness.instance(registeredBy: try await harness.start(on: device))
            let pair = try await harness.start(on: device)
            #expect(try await harness.session(pair).attestationKeyId == instance.keyID)
            #expect(try await harness.session(pair).attestationProvisional)
            #expect(try await harness.confirmation(of: pair.accessToken) != nil)
            let seed002 = "/api/v1/auth/biometric/refresh"
            let proved = try await harness.refresh(
                pair.refreshToken, nonce: pair.attestationNonce, by: instance, path: seed002)
            #expect(proved.status == .ok, "\(proved.body.string)")
            #expect(try await !harness.session(pair).attestationProvisional)
            let next = try proved.json()
            let stolen = try await harness.refresh(try #require(next["refreshToken"] as? String), path: seed002)
            #expect(stolen.status == .unauthorized)
            #expect(try stolen.coreError().error.code == "BINDING_REFUSED")
        }
    }

    @Test(
        "a key planted on the owner's device does not lock the owner out: a start binding yields to the device's proved key",
        arguments: TestDatabase.available)
    func plantedKey(database: TestDatabase) async throws {
        try await Self.withHarness(on: database) { harness in
            let device = DeviceID.random()
            let owner = try await harness.instance(registeredBy: try await harness.start(on: device))
            let planted = try await harness.instance(registeredBy: try await harness.start(on: device))
            let pair = try await harness.start(on: device)
            #expect(try await harness.session(pair).attestationKeyId == planted.keyID)
            let proved = try await harness.refresh(pair.refreshToken, nonce: pair.attestationNonce, by: owner)
            #expect(proved.status == .ok, "\(proved.body.string)")
            let session = try await harness.session(pair)
            #expect(session.attestationKeyId == owner.keyID && !session.attestationProvisional)
            let answer = try proved.json()
            let access = try #require(answer["accessToken"] as? String)
            #expect(try await harness.confirmation(of: access) == session.attestationKeyThumbprint)
            let next = try #require(answer["refreshToken"] as? String)
            let byPlanted = try await harness.refresh(next, nonce: answer["attestationNonce"] as? String, by: planted)
            #expect(byPlanted.status == .unauthorized)
            #expect(try byPlanted.coreError().error.code == "BINDING_REFUSED")
            // Once the binding is for good, the device's other keys are not even candidates.
            let refusal = try #require(try await harness.refusal())
            #expect(refusal.contains("assertion by no key of the session's"), "\(refusal)")
        }
    }

    @Test("a session bound at its start refuses, even on its first refresh, a key registered on another device")
    func provisionalRefusesAnotherDevice() async throws {
        try await Self.withHarness { harness in
            let device = DeviceID.random()
            _ = try await harness.instance(registeredBy: try await harness.start(on: device))
            let elsewhere = try await harness.instance(registeredBy: try await harness.start(on: DeviceID.random()))
            let pair = try await harness.start(on: device)
            let response = try await harness.refresh(pair.refreshToken, nonce: pair.attestationNonce, by: elsewhere)
            #expect(response.status == .unauthorized)
            #expect(try await harness.session(pair).revokeReason == "binding_refused")
        }
    }

    @Test("the confirmation is RFC 7638's thumbprint: RFC 9449's example key gives its example jkt")
    func thumbprint() throws {
        let x = Array(try #require(Base64URL.decode("l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs")))
        let y = Array(try #require(Base64URL.decode("9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA")))
        let key = try P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
        #expect(DeviceAttestation.thumbprint(of: key) == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
    }

    @Test("a refused bound refresh alerts every device of the account, the session's own too")
    func alerts() async throws {
        try await PushHarness.run(settings: Self.attested) { push in
            let account = try await makeAccount(push.app).0.id
            let phone = try await push.device(of: account, apns: "aa01")
            let tablet = try await push.device(of: account, fcm: "fcm-tablet")
            let harness = Harness(app: push.app, account: account)
            let instance = try await harness.instance(registeredBy: try await harness.start(on: phone))
            let pair = try await harness.start(on: phone)
            #expect(try await harness.session(pair).attestationKeyId == instance.keyID)
            #expect(try await harness.refresh(pair.refreshToken).status == .unauthorized)
            let alerted = try await push.outbox().filter { $0.data.contains("bound_refresh_refused") }
            #expect(Set(alerted.map(\.deviceId)) == [phone, tablet])
        }
    }

    /// The session of a token answer, by its access token.
    static func pair(of answer: [String: Any], _ harness: Harness) async throws -> TokenPair {
        let claims = try await harness.app.hale.accessTokens.verify(try #require(answer["accessToken"] as? String))
        let id = try #require(SessionID(claims.sid))
        return TokenPair(
            sessionId: id, accessToken: "", accessTokenExpiresAt: Date(), refreshToken: "",
            refreshTokenExpiresAt: Date())
    }
}
