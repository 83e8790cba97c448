import Crypto
import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// `health.requireAttestation: all`: the daily sync and the sample sync need an App Attest assertion or a Play
/// Integrity token over a fresh nonce and their exact body, as `POST /health` needs one over its nonce.
@Suite("Health writes attested when the server requires it")
struct HealthWriteAttestationTests {
    static let all = DevelopmentAttestationTests.on.merging(["health.requireAttestation": "all"]) { $1 }

    /// A write: its path and body.
    struct Write {
        let path: String
        let body: Data

        static let daily = Write(
            path: "/api/mobile/health/sync",
            body: Data(#"{"platform":"apple","data":{"steps":1200,"date":"\#(HealthSubmissionTests.yesterday)"}}"#.utf8)
        )
        static let samples = Write(path: "/api/v1/health/sync", body: sampleBody(id: "walk-1"))

        static func sampleBody(id: String) -> Data {
            let end = Date().addingTimeInterval(-3_600)
            let dates = [end.addingTimeInterval(-600), end].map { ISO8601DateFormatter().string(from: $0) }
            return Data(
                (#"{"provider":"healthkit","samples":[{"id":"\#(id)","type":"steps","value":300,"unit":"count","#
                    + #""startDate":"\#(dates[0])","endDate":"\#(dates[1])"}]}"#).utf8)
        }
    }

    /// One signed-in account with consent to steps, an App Attest key from the development authority, and its
    /// requests.
    struct Writer {
        let client: DevelopmentAttestationTests.Client
        let attester: SoftwareAppAttester
        let keyID: String

        static func make(_ client: DevelopmentAttestationTests.Client) async throws -> Writer {
            let consent = try await client.post(
                "/api/mobile/health/consent", ["platform": "apple", "permissions": ["steps"]])
            #expect(consent.status == .ok, "\(consent.body.string)")
            let attester = try await client.attester()
            let (keyID, registered) = try await client.register(attester)
            #expect(registered.status == .created, "\(registered.body.string)")
            return Writer(client: client, attester: attester, keyID: keyID)
        }

        /// Headers attesting `attestedBody` over a fresh nonce.
        func headers(for attestedBody: Data) async throws -> [String: String] {
            let nonce = try await client.nonce()
            let requestHash = HealthData.requestHash(nonce: nonce, bodyDigest: SHA256.hash(data: attestedBody))
            let assertion = try await attester.generateAssertion(
                keyID, clientDataHash: DevelopmentAttestationTests.Client.hash(requestHash))
            return [
                "X-Attestation-Platform": "ios", "X-Attestation-Nonce": nonce,
                "X-Attestation-Token": assertion.base64EncodedString(),
            ]
        }

        func send(_ write: Write, headers extra: [String: String] = [:]) async throws -> TestingHTTPResponse {
            var headers = HTTPHeaders.json(bearer: client.token)
            for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
            return try await client.app.testing().sendRequest(
                .POST, write.path, headers: headers, body: ByteBuffer(data: write.body))
        }

        func syncLogCount() async throws -> Int {
            let response = try await client.app.testing().sendRequest(
                .GET, "/api/v1/health/sync-logs", headers: .bearer(client.token))
            return (try response.json()["syncLogs"] as? [Any])?.count ?? -1
        }
    }

    static func withWriter(
        on database: TestDatabase = .sqlite, settings: [String: String] = all, _ body: (Writer) async throws -> Void
    ) async throws {
        try await DevelopmentAttestationTests.withClient(on: database, settings: settings) { client in
            try await body(try Writer.make(client))
        }
    }

    @Test("all: a write without an attestation is 401 ATTESTATION_REQUIRED, and nothing is stored")
    func required() async throws {
        try await Self.withWriter { writer in
            for write in [Write.daily, .samples] {
                let response = try await writer.send(write)
                #expect(response.status == .unauthorized, "\(write.path)")
                #expect(try response.coreError().error.code == "ATTESTATION_REQUIRED")
            }
            #expect(try await writer.syncLogCount() == 0)
        }
    }

    @Test(
        "all: an assertion over the nonce and the body lets the write through, once", arguments: TestDatabase.available)
    func attested(database: TestDatabase) async throws {
        try await Self.withWriter(on: database) { writer in
            for write in [Write.daily, .samples] {
                let headers = try await writer.headers(for: write.body)
                let response = try await writer.send(write, headers: headers)
                #expect(response.status == .ok, "\(write.path): \(response.body.string)")
                let replayed = try await writer.send(write, headers: headers)
                #expect(replayed.status == .badRequest)
                #expect(try replayed.coreError().error.message == "Nonce has already been used")
            }
            #expect(try await writer.syncLogCount() == 2)
        }
    }

    @Test("all: seed 004's activities through /rest/v1 need the same attestation over their body")
    func supabaseActivities() async throws {
        try await Self.withWriter(settings: Self.all.merging(SupabaseReadTests.settings) { $1 }) { writer in
            let at = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3_600))
            let activity = Write(
                path: "/rest/v1/activity_logs",
                body: Data(
                    #"{"activity_type":"steps","value":300,"recorded_at":"\#(at)","source_external_id":"h-1"}"#.utf8))
            let logged = Write(
                path: "/rest/v1/rpc/log_health_activity",
                body: Data(
                    (#"{"p_activity_type":"steps","p_value":200,"p_recorded_at":"\#(at)","#
                        + #""p_source_external_id":"h-2"}"#).utf8))
            let key = ["apikey": SupabaseReadTests.key]
            for write in [activity, logged] {
                let refused = try await writer.send(write, headers: key)
                #expect(refused.status == .unauthorized, "\(write.path): \(refused.body.string)")
                #expect(try refused.json()["code"] as? String == "ATTESTATION_REQUIRED")
                let attested = try await writer.send(
                    write, headers: key.merging(try await writer.headers(for: write.body)) { $1 })
                #expect([.created, .ok].contains(attested.status), "\(write.path): \(attested.body.string)")
            }
            #expect(try await writer.syncLogCount() == 2)
        }
    }

    @Test(
        "all: a Play Integrity token whose nonce is the request hash lets an Android write through; another body's not",
        arguments: TestDatabase.available)
    func playIntegrity(database: TestDatabase) async throws {
        let play = SoftwarePlayIntegrity()
        let settings = Self.all.merging(play.settings) { $1 }
        try await DevelopmentAttestationTests.withClient(on: database, settings: settings) { client in
            let consent = try await client.post(
                "/api/mobile/health/consent", ["platform": "google", "permissions": ["steps"]])
            #expect(consent.status == .ok, "\(consent.body.string)")
            let writer = Writer(client: client, attester: try SoftwareAppAttester(), keyID: "")
            let daily = Write(
                path: "/api/mobile/health/sync",
                body: Data(
                    #"{"platform":"google","data":{"steps":900,"date":"\#(HealthSubmissionTests.yesterday)"}}"#.utf8))
            func headers(attesting body: Data) async throws -> [String: String] {
                let nonce = try await client.nonce()
                let requestHash = HealthData.requestHash(nonce: nonce, bodyDigest: SHA256.hash(data: body))
                return [
                    "X-Attestation-Platform": "android", "X-Attestation-Nonce": nonce,
                    "X-Attestation-Token": try play.token(nonce: requestHash),
                ]
            }
            let other = try await writer.send(daily, headers: try await headers(attesting: Write.daily.body))
            #expect(other.status == .unauthorized)
            #expect(try other.coreError().error.code == "ATTESTATION_FAILED")
            let attested = try await writer.send(daily, headers: try await headers(attesting: daily.body))
            #expect(attested.status == .ok, "\(attested.body.string)")
        }
    }

    @Test("all: an attestation of another body is 401 ATTESTATION_FAILED")
    func anotherBody() async throws {
        try await Self.withWriter { writer in
            let headers = try await writer.headers(for: Write.sampleBody(id: "walk-2"))
            let response = try await writer.send(.samples, headers: headers)
            #expect(response.status == .unauthorized)
            #expect(try response.coreError().error.code == "ATTESTATION_FAILED")
            #expect(try await writer.syncLogCount() == 0)
        }
    }

    @Test(
        "malformed attestation headers are a 400 that names them",
        arguments: [
            (["X-Attestation-Platform": "ios"], "Send all three of"),
            (
                ["X-Attestation-Platform": "windows", "X-Attestation-Nonce": "n", "X-Attestation-Token": "t"],
                "X-Attestation-Platform must be ios or android"
            ),
            (
                [
                    "X-Attestation-Platform": "ios", "X-Attestation-Nonce": String(repeating: "n", count: 257),
                    "X-Attestation-Token": "t",
                ],
                "X-Attestation-Nonce must be 1 to 256 bytes"
            ),
            (
                [
                    "X-Attestation-Platform": "android", "X-Attestation-Nonce": "n",
                    "X-Attestation-Token": String(repeating: "t", count: 16_385),
                ],
                "X-Attestation-Token must be 1 to 16384 bytes"
            ),
        ])
    func malformed(headers: [String: String], message: String) async throws {
        try await Self.withWriter { writer in
            let response = try await writer.send(.daily, headers: headers)
            #expect(response.status == .badRequest)
            let error = try response.coreError().error
            #expect(error.code == "INVALID_REQUEST")
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test("uploads, the default: writes need no attestation")
    func uploadsOnly() async throws {
        try await Self.withWriter(settings: DevelopmentAttestationTests.on) { writer in
            for write in [Write.daily, .samples] {
                let response = try await writer.send(write)
                #expect(response.status == .ok, "\(write.path): \(response.body.string)")
            }
        }
    }

    @Test("the SDK attests its syncs when given an App Attest key, against a running server")
    func sdk() async throws {
        try await withHale(settings: Self.all) { app in
            let (_, token) = try await makeAccount(app)
            try await withServedClient(app, token: token) { client in
                _ = try await client.grantHealthConsent(platform: "apple", permissions: ["steps"])
                let attester = try await client.developmentAppAttester()
                let keyID = try await client.registerAppAttestKey(with: attester)
                let attestation = HealthWriteAttestation.appAttest(attester, keyID: keyID)
                let log = try await client.syncDaily(
                    platform: "apple", date: HealthSubmissionTests.yesterday, steps: 1200, attestation: attestation)
                #expect(log.recordsInserted == 1)
                let end = Date().addingTimeInterval(-3_600)
                let sample = HealthSyncSample(
                    id: "walk-1", type: "steps", value: 300, unit: "count", start: end.addingTimeInterval(-600),
                    end: end)
                let result = try await client.sync(provider: "healthkit", samples: [sample], attestation: attestation)
                #expect(result.syncLog.recordsInserted == 1)
                await #expect(throws: HaleClientError.self) {
                    _ = try await client.syncDaily(platform: "apple", date: HealthSubmissionTests.yesterday, steps: 1)
                }
            }
        }
    }

    @Test("the request hash is base64url of SHA-256(nonce ‖ SHA-256(body)), the same in the SDK")
    func requestHash() {
        // Computed with Python's hashlib: sha256(b"abc" + sha256(b'{"a":1}').digest()), urlsafe, unpadded.
        let expected = "UTi_8Y3e6ClqRjK1iKt9wJMpTYysF-GRoOhs2CMH5GE"
        #expect(HealthData.requestHash(nonce: "abc", bodyDigest: SHA256.hash(data: Data(#"{"a":1}"#.utf8))) == expected)
        #expect(HealthWriteAttestation.requestHash(nonce: "abc", body: Data(#"{"a":1}"#.utf8)) == expected)
    }

    @Test("health.requireAttestation other than uploads or all is a configuration error")
    func configuration() async throws {
        await #expect(throws: ConfigError.self) {
            try await withHale(settings: ["health.requireAttestation": "sometimes"]) { _ in }
        }
    }
}
