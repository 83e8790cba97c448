import Crypto
import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// `tokens.bindToAttestation` for Android apps: a session is bound to the app whose Play Integrity token its refresh
/// carries, and each refresh needs a fresh one over the session's nonce and the body; while Google's service is out,
/// `tokens.playIntegrityOutageGrace` lets it refresh unproved for a while, audited.
@Suite("Sessions bound to an Android app by Play Integrity")
struct SessionBindingAndroidTests {
    typealias Harness = SessionBindingTests.Harness

    /// A running Hale that binds sessions and trusts one Android app, on a clock that moves only when told.
    struct Android {
        let harness: Harness
        let play: SoftwarePlayIntegrity
        let clock: TestClock

        /// `POST /api/v1/auth/refresh` of `token` with a Play Integrity token of `app` over `nonce`, or saying the
        /// service is `unavailable`, or neither.
        func refresh(
            _ token: String, nonce: String? = nil, app: SoftwarePlayIntegrity? = nil, unavailable: String? = nil
        ) async throws -> TestingHTTPResponse {
            var headers = HTTPHeaders([("Content-Type", "application/json")])
            if let nonce, let app {
                let requestHash = HealthData.requestHash(
                    nonce: nonce, bodyDigest: SHA256.hash(data: Harness.body(token)))
                headers.add(name: "X-Attestation-Platform", value: "android")
                headers.add(name: "X-Attestation-Nonce", value: nonce)
                headers.add(
                    name: "X-Attestation-Token", value: try app.token(nonce: requestHash, at: clock.clock.now()))
            }
            if let unavailable { headers.add(name: "X-Attestation-Unavailable", value: unavailable) }
            return try await harness.send(token, headers: headers)
        }

        /// A new session bound by its first refresh; the answer to that refresh.
        func bound() async throws -> [String: Any] {
            let pair = try await harness.start()
            let response = try await refresh(pair.refreshToken, nonce: pair.attestationNonce, app: play)
            #expect(response.status == .ok, "\(response.body.string)")
            #expect(try await harness.session(pair).boundApp == play.packageName)
            return try response.json()
        }
    }

    static func withAndroid(
        on database: TestDatabase = .sqlite, grace: String = "1h", _ body: (Android) async throws -> Void
    ) async throws {
        let play = SoftwarePlayIntegrity()
        let clock = TestClock(Date())
        let settings = SessionBindingTests.attested.merging(play.settings) { $1 }
            .merging(["tokens.playIntegrityOutageGrace": grace]) { $1 }
        try await SessionBindingTests.withHarness(on: database, clock: clock.clock, settings: settings) { harness in
            try await body(Android(harness: harness, play: play, clock: clock))
        }
    }

    @Test(
        "a Play Integrity token over the nonce binds the session to its app; a refresh without one ends it",
        arguments: TestDatabase.available)
    func binds(database: TestDatabase) async throws {
        try await Self.withAndroid(on: database) { android in
            let answer = try await android.bound()
            let access = try #require(answer["accessToken"] as? String)
            #expect(try await android.harness.confirmation(of: access) == nil, "no key to name in cnf")
            let token = try #require(answer["refreshToken"] as? String)
            let proved = try await android.refresh(
                token, nonce: answer["attestationNonce"] as? String, app: android.play)
            #expect(proved.status == .ok, "\(proved.body.string)")
            let next = try #require(try proved.json()["refreshToken"] as? String)
            let stolen = try await android.refresh(next)
            #expect(stolen.status == .unauthorized)
            #expect(try stolen.coreError().error.code == "BINDING_REFUSED")
            #expect(try await android.harness.events().contains("bound_refresh_refused"))
        }
    }

    @Test("another app's token, one over another nonce, and an App Attest assertion are all refused")
    func refusals() async throws {
        try await Self.withAndroid { android in
            for attempt in 0..<3 {
                let answer = try await android.bound()
                let token = try #require(answer["refreshToken"] as? String)
                let nonce = try #require(answer["attestationNonce"] as? String)
                let response: TestingHTTPResponse
                switch attempt {
                case 0:
                    response = try await android.refresh(token, nonce: nonce, app: SoftwarePlayIntegrity())
                case 1:
                    response = try await android.refresh(token, nonce: "another nonce", app: android.play)
                default:
                    let instance = try await android.harness.instance(registeredBy: try await android.harness.start())
                    response = try await android.harness.refresh(token, nonce: nonce, by: instance)
                }
                #expect(response.status == .unauthorized, "attempt \(attempt): \(response.body.string)")
                let reason = ["Play Integrity token", "wrong nonce", "not a Play Integrity token"][attempt]
                let refusal = try #require(try await android.harness.refusal())
                #expect(refusal.contains(reason), "attempt \(attempt): \(refusal)")
            }
        }
    }

    @Test(
        "while Google's service is out, a bound session refreshes unproved within the grace, audited; then it ends",
        arguments: TestDatabase.available)
    func outageGrace(database: TestDatabase) async throws {
        try await Self.withAndroid(on: database) { android in
            let answer = try await android.bound()
            var token = try #require(answer["refreshToken"] as? String)
            android.clock.advance(.seconds(1_800))
            let outage = try await android.refresh(token, unavailable: "GOOGLE_SERVER_UNAVAILABLE")
            #expect(outage.status == .ok, "\(outage.body.string)")
            #expect(try await android.harness.events().contains("bound_refresh_outage_grace"))
            token = try #require(try outage.json()["refreshToken"] as? String)
            android.clock.advance(.seconds(1_801))
            let late = try await android.refresh(token, unavailable: "GOOGLE_SERVER_UNAVAILABLE")
            #expect(late.status == .unauthorized, "the grace counts from the last proved refresh")
            #expect(try late.coreError().error.code == "BINDING_REFUSED")
        }
    }

    @Test(
        "with no grace configured, saying the service is out does not help, even on an instance whose clock is behind the one that proved the last refresh"
    )
    func noGrace() async throws {
        try await Self.withAndroid(grace: "off") { android in
            let token = try #require(try await android.bound()["refreshToken"] as? String)
            android.clock.advance(.seconds(-60))
            let response = try await android.refresh(token, unavailable: "NETWORK_ERROR")
            #expect(response.status == .unauthorized)
        }
    }

    @Test("the unavailable header is checked: its form, and never beside an attestation")
    func unavailableHeader() async throws {
        try await Self.withAndroid { android in
            let pair = try await android.harness.start()
            let malformed = try await android.refresh(pair.refreshToken, unavailable: "service down")
            #expect(malformed.status == .badRequest)
            let both = try await android.refresh(
                pair.refreshToken, nonce: pair.attestationNonce, app: android.play, unavailable: "NETWORK_ERROR")
            #expect(both.status == .badRequest)
            let unbound = try await android.refresh(pair.refreshToken, unavailable: "NETWORK_ERROR")
            #expect(unbound.status == .ok, "an unbound session under attested refreshes as a bearer one")
        }
    }

    @Test("tokens.playIntegrityOutageGrace is at most 7d")
    func graceBound() throws {
        var values = ConfigValues()
        values["tokens.playIntegrityOutageGrace"] = "8d"
        #expect(throws: ConfigError("tokens.playIntegrityOutageGrace must be at most 7d")) {
            try HaleConfiguration(values)
        }
        values["tokens.playIntegrityOutageGrace"] = "7d"
        #expect(try HaleConfiguration(values).tokens.playIntegrityOutageGrace == .seconds(7 * 86_400))
    }
}
