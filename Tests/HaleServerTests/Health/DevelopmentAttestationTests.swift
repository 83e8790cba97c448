import Crypto
import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting
import X509

@testable import HaleServer

/// Development attestation mode: `POST /health/development-attestation` certifies the SDK's software attester, whose
/// attestations and assertions then carry seed 001's attested flow; with the mode off, neither is accepted.
@Suite("HTTP: development attestation mode")
struct DevelopmentAttestationTests {
    static let on = ["appAttest.developmentMode": "true"]
    static let developmentApp = "HALEDEVAPP.dev.hale.attestation"

    /// The signed-in account's requests to one running Hale.
    struct Client {
        let app: Application
        let token: String

        func post(_ path: String, _ body: [String: Any]) async throws -> TestingHTTPResponse {
            try await post(path, raw: try JSONSerialization.data(withJSONObject: body))
        }

        func post(_ path: String, raw body: Data) async throws -> TestingHTTPResponse {
            try await app.testing().sendRequest(
                .POST, path, headers: .json(bearer: token), body: ByteBuffer(data: body))
        }

        func nonce() async throws -> String {
            let response = try await app.testing().sendRequest(
                .GET, "/health/attestation-nonce", headers: .bearer(token))
            return try #require(try response.json()["nonce"] as? String)
        }

        /// An attester built from the credential the route issues for a fresh key.
        func attester() async throws -> SoftwareAppAttester {
            let key = P256.Signing.PrivateKey()
            let response = try await post(
                "/health/development-attestation", ["publicKey": key.publicKey.derRepresentation.base64EncodedString()])
            #expect(response.status == .created, "\(response.body.string)")
            let body = try response.json()
            return try SoftwareAppAttester(
                intermediateKey: key,
                certificate: try #require(Data(base64Encoded: body["certificate"] as? String ?? "")),
                rootCertificate: try #require(Data(base64Encoded: body["rootCertificate"] as? String ?? "")),
                appID: try #require(body["appId"] as? String),
                environment: try #require(
                    SoftwareAppAttester.Environment(rawValue: body["environment"] as? String ?? "")))
        }

        /// Registers a new key of `attester` through `/health/attestation-keys`.
        func register(_ attester: SoftwareAppAttester) async throws -> (keyID: String, response: TestingHTTPResponse) {
            let keyID = try await attester.generateKey()
            let nonce = try await nonce()
            let attestation = try await attester.attestKey(keyID, clientDataHash: Self.hash(nonce))
            let response = try await post(
                "/health/attestation-keys",
                ["keyId": keyID, "nonce": nonce, "attestation": attestation.base64EncodedString()])
            return (keyID, response)
        }

        /// Submits a day's totals to `/health` with an assertion of `keyID` over a fresh nonce.
        func submit(_ attester: SoftwareAppAttester, keyID: String, steps: Int) async throws -> TestingHTTPResponse {
            let nonce = try await nonce()
            let assertion = try await attester.generateAssertion(keyID, clientDataHash: Self.hash(nonce))
            return try await post(
                "/health",
                [
                    "nonce": nonce, "attestationToken": assertion.base64EncodedString(), "platform": "ios",
                    "steps": steps, "duration": 3600, "calories": 350.5, "distance": 5200.75, "source": "ios_health",
                    "date": HealthSubmissionTests.yesterday,
                ])
        }

        static func hash(_ nonce: String) -> Data {
            Data(SHA256.hash(data: Data(nonce.utf8)))
        }
    }

    static func withClient(
        on database: TestDatabase = .sqlite, clock: HaleClock = .system, settings: [String: String] = on,
        _ body: (Client) async throws -> Void
    ) async throws {
        try await withHale(on: database, clock: clock, settings: settings) { app in
            let (_, token) = try await makeAccount(app)
            try await body(Client(app: app, token: token))
        }
    }

    @Test("on: the credential is an intermediate CA for the key, for a day, under the development root")
    func credential() async throws {
        let now = Date(timeIntervalSince1970: 1_753_399_800)
        try await Self.withClient(clock: HaleClock { now }) { client in
            let key = P256.Signing.PrivateKey()
            let response = try await client.post(
                "/health/development-attestation", ["publicKey": key.publicKey.derRepresentation.base64EncodedString()])
            #expect(response.status == .created, "\(response.body.string)")
            let body = try response.json()
            #expect(body.keys.sorted() == ["appId", "certificate", "environment", "expiresAt", "rootCertificate"])
            #expect(body["appId"] as? String == Self.developmentApp)
            #expect(body["environment"] as? String == "production")
            let intermediate = try Certificate(
                derEncoded: Array(try #require(Data(base64Encoded: body["certificate"] as? String ?? ""))))
            let root = try Certificate(
                derEncoded: Array(try #require(Data(base64Encoded: body["rootCertificate"] as? String ?? ""))))
            #expect(
                P256.Signing.PublicKey(intermediate.publicKey)?.rawRepresentation == key.publicKey.rawRepresentation)
            #expect(intermediate.issuer == root.subject)
            #expect(root.subject.description.contains("Hale Development App Attestation Root CA"))
            #expect(root.publicKey.isValidSignature(intermediate.signature, for: intermediate))
            let constraints = try #require(try intermediate.extensions.basicConstraints)
            #expect(constraints == .isCertificateAuthority(maxPathLength: 0))
            #expect(try intermediate.extensions.keyUsage?.keyCertSign == true)
            #expect(intermediate.notValidAfter == now + 86_400)
            #expect(intermediate.notValidBefore == now - 300)
            #expect(body["expiresAt"] as? String == "2025-07-25T23:30:00.000Z")
        }
    }

    @Test("on: the configured app and environment are what the SDK is told to attest as")
    func configuredApp() async throws {
        var settings = Self.on
        settings["apps.apple"] = "TEAM123456.com.example.health,TEAM123456.com.example.other"
        settings["appAttest.environment"] = "development"
        try await Self.withClient(settings: settings) { client in
            let attester = try await client.attester()
            #expect(attester.appID == "TEAM123456.com.example.health")
            #expect(attester.environment == .development)
            #expect(try await client.register(attester).response.status == .created)
        }
    }

    @Test(
        "on: a software attester registers its key, then each submission carries an assertion",
        arguments: TestDatabase.available)
    func attestedFlow(database: TestDatabase) async throws {
        try await Self.withClient(on: database) { client in
            let attester = try await client.attester()
            let (keyID, registered) = try await client.register(attester)
            #expect(registered.status == .created, "\(registered.body.string)")
            #expect(try registered.json()["keyId"] as? String == keyID)
            let first = try await client.submit(attester, keyID: keyID, steps: 8500)
            #expect(first.status == .created, "\(first.body.string)")
            let second = try await client.submit(attester, keyID: keyID, steps: 9000)
            #expect(second.status == .created, "\(second.body.string)")
            #expect(try second.json()["replaced"] as? Bool == true)
        }
    }

    @Test("off: the route does not exist, in seed 001's error shape")
    func offRouteIsNotFound() async throws {
        try await Self.withClient(settings: [:]) { client in
            let response = try await client.post(
                "/health/development-attestation",
                ["publicKey": P256.Signing.PrivateKey().publicKey.derRepresentation.base64EncodedString()])
            #expect(try HealthHTTPTests.error(response, .notFound) == "Not Found")
        }
    }

    @Test("on with production apps attesting in production: Hale refuses to start")
    func refusedForProductionApps() async throws {
        let settings = Self.on.merging(["apps.apple": "TEAM123456.com.example.health"]) { $1 }
        do {
            try await withHale(settings: settings) { _ in Issue.record("Hale started") }
        } catch let error as ConfigError {
            #expect(error.description.contains("appAttest.environment to development"))
        }
    }

    @Test("off: attestations chained to the development CA are refused, though the app is configured")
    func offRefusesDevelopmentChains() async throws {
        let (url, dispose) = try await TestDatabase.sqlite.provision()
        defer { Task { await dispose() } }
        let off = ["apps.apple": Self.developmentApp, "appAttest.environment": "development"]
        let on = off.merging(Self.on) { $1 }
        var attester: SoftwareAppAttester?
        try await withHale(databaseURL: url, settings: on) { app in
            let (_, token) = try await makeAccount(app)
            attester = try await Client(app: app, token: token).attester()
        }
        try await withHale(databaseURL: url, settings: off) { app in
            let (_, token) = try await makeAccount(app, email: "later@example.com")
            let (_, response) = try await Client(app: app, token: token).register(try #require(attester))
            #expect(try HealthHTTPTests.error(response, .unauthorized) == "Attestation verification failed")
        }
    }

    @Test(
        "off: keys the development CA certified stop working, keys Apple's root certified go on",
        arguments: TestDatabase.available)
    func turningTheModeOffEndsDevelopmentKeys(database: TestDatabase) async throws {
        let (url, dispose) = try await database.provision()
        defer { Task { await dispose() } }
        // A key certified by the configured root (standing in for Apple's), registered while the mode is on.
        let device = try SoftwareAppAttester(teamID: "HALEDEVAPP", bundleID: "dev.hale.attestation")
        var production = ["apps.apple": Self.developmentApp, "appAttest.environment": "development"]
        production["appAttest.rootCertificate"] = try device.rootPEM
        var on = production
        on["appAttest.developmentMode"] = "true"
        var token = ""
        var development: (attester: SoftwareAppAttester, keyID: String)?
        var real: (attester: SoftwareAppAttester, keyID: String)?
        try await withHale(databaseURL: url, settings: on) { app in
            token = try await makeAccount(app).1
            let client = Client(app: app, token: token)
            let attester = try await client.attester()
            let registered = try await client.register(attester)
            #expect(registered.response.status == .created, "\(registered.response.body.string)")
            development = (attester, registered.keyID)
            let realKey = try await client.register(device)
            #expect(realKey.response.status == .created, "\(realKey.response.body.string)")
            real = (device, realKey.keyID)
            let submitted = try await client.submit(attester, keyID: registered.keyID, steps: 1_000)
            #expect(submitted.status == .created)
        }
        try await withHale(databaseURL: url, settings: production) { app in
            let client = Client(app: app, token: token)
            let (attester, keyID) = try #require(development)
            let refused = try await client.submit(attester, keyID: keyID, steps: 2_000)
            #expect(try HealthHTTPTests.error(refused, .unauthorized) == "Attestation verification failed")
            let (device, deviceKeyID) = try #require(real)
            let accepted = try await client.submit(device, keyID: deviceKeyID, steps: 3_000)
            #expect(accepted.status == .created, "\(accepted.body.string)")
        }
    }

    struct Rejection: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let body: String
        let message: String
    }

    static let rejections = [
        Rejection(
            testDescription: "an unknown field",
            body: #"{"publicKey": "\#(validKey)", "deviceId": "x"}"#, message: "property deviceId should not exist"),
        Rejection(testDescription: "no publicKey", body: "{}", message: "publicKey must be a non-empty string"),
        Rejection(
            testDescription: "publicKey not base64", body: #"{"publicKey": "not base64!"}"#,
            message: "publicKey must be standard base64"),
        Rejection(
            testDescription: "publicKey a P-384 key",
            body: #"{"publicKey": "\#(P384.Signing.PrivateKey().publicKey.derRepresentation.base64EncodedString())"}"#,
            message: "publicKey must be the DER SubjectPublicKeyInfo of a P-256 key"),
        Rejection(
            testDescription: "publicKey a raw point, not a SubjectPublicKeyInfo",
            body: #"{"publicKey": "\#(P256.Signing.PrivateKey().publicKey.x963Representation.base64EncodedString())"}"#,
            message: "publicKey must be the DER SubjectPublicKeyInfo of a P-256 key"),
        Rejection(testDescription: "a JSON array", body: "[]", message: "The body must be a JSON object"),
        Rejection(
            testDescription: "publicKey over 1024 bytes",
            body: #"{"publicKey": "\#(String(repeating: "A", count: 1028))"}"#,
            message: "publicKey must be at most 1024 bytes"),
    ]
    static let validKey = P256.Signing.PrivateKey().publicKey.derRepresentation.base64EncodedString()

    @Test("on: a malformed body is 400 with a message naming what is wrong", arguments: rejections)
    func rejection(_ rejection: Rejection) async throws {
        try await Self.withClient { client in
            let response = try await client.post("/health/development-attestation", raw: Data(rejection.body.utf8))
            #expect(try HealthHTTPTests.error(response, .badRequest) == rejection.message)
        }
    }

    @Test("on: the route needs a signed-in account")
    func needsSignIn() async throws {
        try await Self.withClient { client in
            let response = try await client.app.testing().sendRequest(
                .POST, "/health/development-attestation", headers: .json(),
                body: .json(#"{"publicKey": "\#(Self.validKey)"}"#))
            _ = try HealthHTTPTests.error(response, .unauthorized)
        }
    }
}
