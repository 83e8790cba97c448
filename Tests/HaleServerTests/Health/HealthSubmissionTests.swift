import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// `POST /health` and App Attest key registration, with a software App Attest device and Play Integrity tokens made
/// with test keys.
@Suite("HTTP: seed 001 attested health submissions")
struct HealthSubmissionTests {
    /// The day the submissions are for: yesterday in UTC, the accounts' zone, so it is always within the window of
    /// days a client may send data for. (The attestation certificates are made for the real clock.)
    static var yesterday: String {
        LocalDate(at: Date(), in: .gmt).adding(days: -1).description
    }

    struct Fixture {
        let app: Application
        let token: String
        let attester: SoftwareAppAttester
        let play: SoftwarePlayIntegrity
        let time: TestClock

        func nonce(bearer: String? = nil) async throws -> String {
            let response = try await app.testing().sendRequest(
                .GET, "/health/attestation-nonce", headers: ["Authorization": "Bearer \(bearer ?? token)"])
            return try #require(try response.json()["nonce"] as? String)
        }

        func post(_ path: String, _ body: [String: Any], bearer: String? = nil) async throws -> TestingHTTPResponse {
            try await app.testing().sendRequest(
                .POST, path,
                headers: ["Authorization": "Bearer \(bearer ?? token)", "Content-Type": "application/json"],
                body: ByteBuffer(data: try JSONSerialization.data(withJSONObject: body)))
        }

        func submit(
            nonce: String, token attestation: String, platform: String = "ios", steps: Any = 8500,
            extra: [String: Any] = [:]
        ) async throws -> TestingHTTPResponse {
            var body: [String: Any] = [
                "nonce": nonce, "attestationToken": attestation, "platform": platform, "steps": steps,
                "duration": 3600, "calories": 350.5, "distance": 5200.75, "source": "\(platform)_health",
                "date": HealthSubmissionTests.yesterday,
            ]
            body.merge(extra) { $1 }
            return try await post("/health", body)
        }

        /// Registers the software device's key with a fresh nonce.
        func registerKey() async throws {
            let nonce = try await nonce()
            let response = try await post(
                "/health/attestation-keys",
                [
                    "keyId": Data(attester.keyID).base64EncodedString(), "nonce": nonce,
                    "attestation": Data(try attester.attestation(challenge: nonce)).base64EncodedString(),
                ])
            #expect(response.status == .created, "\(response.body.string)")
        }

        func assertion(_ nonce: String, counter: UInt32) throws -> String {
            Data(try attester.assertion(challenge: nonce, counter: counter)).base64EncodedString()
        }
    }

    static func withFixture(
        on database: TestDatabase = .sqlite, settings extra: [String: String] = [:],
        _ body: (Fixture) async throws -> Void
    ) async throws {
        let attester = try SoftwareAppAttester()
        let play = SoftwarePlayIntegrity()
        let time = TestClock(Date())
        var settings = play.settings.merging(extra) { $1 }
        settings["apps.apple"] = attester.appID
        settings["appAttest.environment"] = "development"
        settings["appAttest.rootCertificate"] = try attester.rootPEM
        try await withHale(on: database, clock: time.clock, settings: settings) { app in
            let (_, token) = try await makeAccount(app)
            try await body(Fixture(app: app, token: token, attester: attester, play: play, time: time))
        }
    }

    static func message(
        _ response: TestingHTTPResponse, _ status: HTTPStatus, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> String
    {
        try HealthHTTPTests.error(response, status, sourceLocation: sourceLocation)
    }

    @Test("iOS: the key is attested once, then each submission carries an assertion", arguments: TestDatabase.available)
    func iosAssertions(database: TestDatabase) async throws {
        try await Self.withFixture(on: database) { fixture in
            try await fixture.registerKey()
            let nonce = try await fixture.nonce()
            let response = try await fixture.submit(nonce: nonce, token: try fixture.assertion(nonce, counter: 1))
            #expect(response.status == .created, "\(response.body.string)")
            let body = try response.json()
            #expect(body["date"] as? String == Self.yesterday)
            #expect(body["steps"] as? Int == 8500)
            #expect(body["calories"] as? Double == 350.5)
            #expect(body["distance"] as? Double == 5200.75)
            #expect(body["source"] as? String == "ios_health")
            #expect(body["replaced"] as? Bool == false)
            #expect(Set(body.keys).isSuperset(of: ["id", "userId", "duration", "createdAt", "updatedAt"]))
            let next = try await fixture.nonce()
            let again = try await fixture.submit(
                nonce: next, token: try fixture.assertion(next, counter: 2), extra: ["steps": 9000])
            #expect(again.status == .created)
            #expect(try again.json()["replaced"] as? Bool == true)
            #expect(try again.json()["id"] as? String == body["id"] as? String)
        }
    }

    @Test(
        "fractional steps, as HealthKit's cumulative sum is a Double, are rounded to the nearest whole step",
        arguments: [(8500.4, 8500), (8500.5, 8501), (0.4, 0)] as [(Double, Int)])
    func fractionalSteps(sent: Double, stored: Int) async throws {
        try await Self.withFixture { fixture in
            try await fixture.registerKey()
            let nonce = try await fixture.nonce()
            let response = try await fixture.submit(
                nonce: nonce, token: try fixture.assertion(nonce, counter: 1), extra: ["steps": sent])
            #expect(response.status == .created, "\(response.body.string)")
            #expect(try response.json()["steps"] as? Int == stored)
        }
    }

    @Test("iOS: an attestation object in place of an assertion, as seed 001's sample sends, registers and submits")
    func iosAttestationInSubmission() async throws {
        try await Self.withFixture { fixture in
            let nonce = try await fixture.nonce()
            let attestation = Data(try fixture.attester.attestation(challenge: nonce)).base64EncodedString()
            let response = try await fixture.submit(nonce: nonce, token: attestation)
            #expect(response.status == .created, "\(response.body.string)")
            let next = try await fixture.nonce()
            #expect(
                try await fixture.submit(nonce: next, token: try fixture.assertion(next, counter: 1)).status == .created
            )
        }
    }

    @Test("iOS: a replayed counter, an assertion over another nonce, or an unknown key is 401")
    func iosRefusals() async throws {
        try await Self.withFixture { fixture in
            try await fixture.registerKey()
            let first = try await fixture.nonce()
            #expect(
                try await fixture.submit(nonce: first, token: try fixture.assertion(first, counter: 5)).status
                    == .created)
            let replay = try await fixture.nonce()
            let replayed = try await fixture.submit(nonce: replay, token: try fixture.assertion(replay, counter: 5))
            #expect(try Self.message(replayed, .unauthorized) == "Attestation verification failed")
            let other = try await fixture.nonce()
            let wrongNonce = try await fixture.submit(nonce: other, token: try fixture.assertion("another", counter: 6))
            #expect(try Self.message(wrongNonce, .unauthorized) == "Attestation verification failed")
            let stranger = try SoftwareAppAttester()
            let unknown = try await fixture.nonce()
            let unknownKey = try await fixture.submit(
                nonce: unknown,
                token: Data(try stranger.assertion(challenge: unknown, counter: 1)).base64EncodedString())
            #expect(try Self.message(unknownKey, .unauthorized) == "Attestation verification failed")
        }
    }

    @Test(
        "Android: a Play Integrity token for the nonce is accepted; one for another nonce, stale or below policy is 401"
    )
    func android() async throws {
        try await Self.withFixture { fixture in
            let nonce = try await fixture.nonce()
            let accepted = try await fixture.submit(
                nonce: nonce, token: try fixture.play.token(nonce: nonce, at: fixture.time.clock.now()),
                platform: "android")
            #expect(accepted.status == .created, "\(accepted.body.string)")
            for token in [
                { (nonce: String) in try fixture.play.token(nonce: "someone-elses", at: fixture.time.clock.now()) },
                { (nonce: String) in try fixture.play.token(nonce: nonce, at: fixture.time.clock.now(), age: 3600) },
                { (nonce: String) in
                    try fixture.play.token(nonce: nonce, at: fixture.time.clock.now(), deviceRecognition: [])
                },
                { (nonce: String) in
                    try fixture.play.token(
                        nonce: nonce, at: fixture.time.clock.now(), appRecognition: "UNRECOGNIZED_VERSION")
                },
            ] {
                let nonce = try await fixture.nonce()
                let refused = try await fixture.submit(nonce: nonce, token: try token(nonce), platform: "android")
                #expect(try Self.message(refused, .unauthorized) == "Attestation verification failed")
            }
        }
    }

    @Test("nonces: unknown, used, expired and another account's, with the document's messages")
    func nonces() async throws {
        try await Self.withFixture { fixture in
            try await fixture.registerKey()
            let unknown = try await fixture.submit(nonce: "not-issued", token: "AAAA")
            #expect(try Self.message(unknown, .badRequest) == "Invalid nonce")
            let nonce = try await fixture.nonce()
            #expect(
                try await fixture.submit(nonce: nonce, token: try fixture.assertion(nonce, counter: 1)).status
                    == .created)
            let used = try await fixture.submit(nonce: nonce, token: try fixture.assertion(nonce, counter: 2))
            #expect(try Self.message(used, .badRequest) == "Nonce has already been used")
            let late = try await fixture.nonce()
            fixture.time.advance(.seconds(301))
            let expired = try await fixture.submit(nonce: late, token: try fixture.assertion(late, counter: 3))
            #expect(try Self.message(expired, .badRequest) == "Nonce has expired")
            let (_, otherToken) = try await makeAccount(fixture.app, email: "other@example.com")
            let theirs = try await fixture.nonce(bearer: otherToken)
            let stolen = try await fixture.submit(nonce: theirs, token: try fixture.assertion(theirs, counter: 4))
            #expect(try Self.message(stolen, .badRequest) == "Invalid nonce")
        }
    }

    @Test(
        "implausible values get the document's messages, and leave the nonce unused",
        arguments: [
            ("steps", 100_001, "Step count is implausibly high"),
            ("calories", 15_000.01, "Calorie count is implausibly high"),
            ("distance", 250_001, "Distance is implausibly high"), ("duration", 86_401, "Duration is implausibly high"),
        ] as [(String, Double, String)])
    func plausibility(field: String, value: Double, message: String) async throws {
        try await Self.withFixture { fixture in
            try await fixture.registerKey()
            let nonce = try await fixture.nonce()
            let refused = try await fixture.submit(nonce: nonce, token: "AAAA", extra: [field: value])
            #expect(try Self.message(refused, .badRequest) == message)
            #expect(
                try await fixture.submit(nonce: nonce, token: try fixture.assertion(nonce, counter: 1)).status
                    == .created)
        }
    }

    @Test(
        "invalid fields are 400 with a message naming them",
        arguments: [
            (#""platform": "windows""#, "Unsupported platform"), (#""steps": -1"#, "Steps must be a positive number"),
            (#""steps": "many""#, "Steps must be a positive number"),
            (#""calories": -0.5"#, "Calories must be a positive number"),
            (#""date": "24/07/2025""#, "date must be a valid ISO 8601 date string (YYYY-MM-DD)"),
            (#""date": "2999-01-01""#, "date must not be in the future"),
            (#""date": "0001-01-01""#, "date must be within the last 366 days"),
            (#""steps": 1e19"#, "Steps must be a positive number"),
            (#""distance": 1e308"#, "Distance must be a positive number"),
            (#""duration": "3600""#, "Duration must be a positive number"),
            (#""userId": "someone""#, "property userId should not exist"),
            (#""nonce": """#, "nonce should not be empty"),
            (#""source": "ios health""#, "source must contain only letters, digits, _, . and -"),
            (#""nonce": "\#(String(repeating: "n", count: 257))""#, "nonce must be at most 256 bytes"),
            (
                #""attestationToken": "\#(String(repeating: "t", count: 16_385))""#,
                "attestationToken must be at most 16384 bytes"
            ),
        ])
    func invalidFields(member: String, message: String) async throws {
        try await Self.withFixture { fixture in
            let nonce = try await fixture.nonce()
            let extra = try #require(
                try JSONSerialization.jsonObject(with: Data("{\(member)}".utf8)) as? [String: Any])
            let response = try await fixture.submit(nonce: nonce, token: "AAAA", extra: extra)
            #expect(try Self.message(response, .badRequest) == message)
        }
    }

    @Test("without Play Integrity keys, Android submissions are refused as unverified")
    func androidNotConfigured() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let nonceResponse = try await app.testing().sendRequest(
                .GET, "/health/attestation-nonce", headers: ["Authorization": "Bearer \(token)"])
            let nonce = try #require(try nonceResponse.json()["nonce"] as? String)
            let body =
                #"{"nonce": "\#(nonce)", "attestationToken": "a.b.c.d.e", "platform": "android", "steps": 1, "duration": 1, "calories": 1, "distance": 1, "source": "android_health"}"#
            let response = try await app.testing().sendRequest(
                .POST, "/health", headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                body: ByteBuffer(string: body))
            #expect(try Self.message(response, .unauthorized) == "Attestation verification failed")
        }
    }
}
