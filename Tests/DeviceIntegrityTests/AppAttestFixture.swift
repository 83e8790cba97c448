import CBOR
import Crypto
import DeviceIntegrity
import Foundation
import Testing
import X509

/// One real device's attestation and first assertion, with what to verify them with.
struct AppAttestFixture: Sendable, CustomTestStringConvertible {
    let name: String
    let app: AppAttestApp
    let environment: AppAttestEnvironment
    let keyID: [UInt8]
    let clientDataHash: [UInt8]
    let attestation: [UInt8]
    let attestedAt: Date
    let assertion: [UInt8]
    let assertionCounter: UInt32

    var testDescription: String { name }

    static let names = [
        "ios-14.2.yaml", "ios-14.3-beta-2.yaml", "ios-14.3-beta-3.yaml", "ios-14.3.yaml", "ios-14.4-beta-1.yaml",
        "ios-14.4-beta-2.yaml", "ios-14.4.yaml", "webauthn4j-kayak-production.json",
    ]

    static func load(_ name: String) throws -> AppAttestFixture {
        name.hasSuffix(".json") ? try json(name) : try yaml(name)
    }

    func verifier(apps: [AppAttestApp]? = nil, environment: AppAttestEnvironment? = nil) throws -> AppAttestVerifier {
        try AppAttestVerifier(apps: apps ?? [app], environment: environment ?? self.environment)
    }

    /// The attestation's credential certificate.
    func leafCertificate() throws -> Certificate {
        let object = try CBORDecoder().decode(attestation)
        return try Certificate(derEncoded: try #require(object["attStmt"]?["x5c"]?.array?.first?.bytes))
    }
}

extension AppAttestFixture {
    private static func yaml(_ name: String) throws -> AppAttestFixture {
        let documents = FixtureDocuments.parse(try FixtureDocuments.text(name))
        let attestation = try #require(documents.first { $0["type"] == "attestation" })
        let assertion = try #require(documents.first { $0["type"] == "assertion" })
        return AppAttestFixture(
            name: name,
            app: AppAttestApp(
                teamID: try #require(attestation["teamIdentifier"]),
                bundleID: try #require(attestation["bundleIdentifier"])),
            environment: try #require(attestation["environment"].flatMap(AppAttestEnvironment.init(rawValue:))),
            keyID: try base64(attestation["keyIdBase64"]),
            clientDataHash: Array(SHA256.hash(data: try base64(attestation["clientDataBase64"]))),
            attestation: try base64(attestation["attestationBase64"]),
            attestedAt: try date(attestation["timestamp"]),
            assertion: try base64(assertion["assertionBase64"]),
            assertionCounter: try #require(assertion["counter"].flatMap { UInt32($0) }))
    }

    private static func json(_ name: String) throws -> AppAttestFixture {
        struct Document: Decodable {
            struct Assertion: Decodable { var assertionBase64: String }
            var environment, teamIdentifier, bundleIdentifier, keyIdBase64, clientData, verifyAt: String
            var attestationBase64: String
            var assertion: Assertion
        }
        let document = try JSONDecoder().decode(Document.self, from: Data(try FixtureDocuments.text(name).utf8))
        return AppAttestFixture(
            name: name, app: AppAttestApp(teamID: document.teamIdentifier, bundleID: document.bundleIdentifier),
            environment: try #require(AppAttestEnvironment(rawValue: document.environment)),
            keyID: try base64(document.keyIdBase64),
            clientDataHash: Array(SHA256.hash(data: Array(document.clientData.utf8))),
            attestation: try base64(document.attestationBase64), attestedAt: try date(document.verifyAt),
            assertion: try base64(document.assertion.assertionBase64), assertionCounter: 1)
    }

    static func base64(_ text: String?) throws -> [UInt8] {
        let text = try #require(text)
        return Array(try #require(Data(base64Encoded: text)))
    }

    static func date(_ text: String?) throws -> Date {
        let text = try #require(text)
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: text.contains("."))
        return try style.parse(text)
    }
}
