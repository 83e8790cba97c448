import Foundation
import HaleTesting
import Testing
import _CryptoExtras

@testable import HaleServer

/// `firebase.*`: off unless a project is set, and a service account checked when Hale starts, every refusal naming
/// the key and never the private key.
@Suite("Configuration: Firebase")
struct FirebaseConfigurationTests {
    /// A real-shaped key file with a test key, made once.
    static let keyFile: [String: String] = {
        let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
        return [
            "type": "service_account", "project_id": "hale-petwash", "private_key_id": "k1",
            "private_key": key.pkcs8PEMRepresentation,
            "client_email": "firebase-adminsdk-x@hale-petwash.iam.gserviceaccount.com",
        ]
    }()

    static func json(_ changes: [String: String?] = [:]) -> String {
        var file = keyFile
        for (name, value) in changes { file[name] = value }
        return String(decoding: try! JSONSerialization.data(withJSONObject: file), as: UTF8.self)
    }

    private func configuration(_ values: [String: String]) throws -> HaleConfiguration {
        try HaleConfiguration(ConfigValues(values))
    }

    @Test("Off by default")
    func offByDefault() throws {
        #expect(try configuration([:]).firebase == nil)
    }

    @Test("A project alone: ID tokens, no minting, Google's certificates")
    func projectAlone() throws {
        let firebase = try #require(try configuration(["firebase.projectId": "hale-petwash"]).firebase)
        #expect(firebase.projectID == "hale-petwash")
        #expect(firebase.serviceAccount == nil)
        #expect(
            firebase.certificatesURL
                == "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com")
    }

    @Test("A service account as JSON, or as the path of its key file")
    func serviceAccount() throws {
        let inline = try configuration(["firebase.projectId": "hale-petwash", "firebase.serviceAccount": Self.json()])
        #expect(
            inline.firebase?.serviceAccount?.clientEmail == "firebase-adminsdk-x@hale-petwash.iam.gserviceaccount.com")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sa-\(UUID()).json")
        try Data(Self.json().utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let fromFile = try configuration(["firebase.projectId": "hale-petwash", "firebase.serviceAccount": path.path])
        #expect(fromFile.firebase?.serviceAccount?.privateKeyID == "k1")
    }

    @Test(
        "Each malformed service account is a clear error at start, naming the key and the member",
        arguments: [
            (
                ["private_key": nil],
                "firebase.serviceAccount must be a service account JSON key: private_key is missing"
            ),
            (
                ["private_key": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"],
                "firebase.serviceAccount must be a service account JSON key: private_key is not an RSA key of 2048 bits or more in PEM"
            ),
            (
                ["client_email": nil],
                "firebase.serviceAccount must be a service account JSON key: client_email is missing"
            ),
            (
                ["type": "authorized_user"],
                "firebase.serviceAccount must be a service account JSON key: type is not service_account"
            ),
            (
                ["project_id": "another-project"],
                "firebase.serviceAccount belongs to project another-project, not hale-petwash: Firebase refuses custom tokens another project's service account signs"
            ),
        ] as [([String: String?], String)])
    func malformedServiceAccount(changes: [String: String?], message: String) {
        #expect(throws: ConfigError(message)) {
            try configuration(["firebase.projectId": "hale-petwash", "firebase.serviceAccount": Self.json(changes)])
        }
    }

    @Test("A key file that is not JSON, or a path that cannot be read")
    func unreadable() {
        #expect(
            throws: ConfigError(
                "firebase.serviceAccount must be a service account JSON key: it is not a JSON object of at most 64 KiB")
        ) {
            try configuration(["firebase.projectId": "hale-petwash", "firebase.serviceAccount": "{not json"])
        }
        #expect(
            throws: ConfigError(
                "firebase.serviceAccount must be a service account JSON key, or the path of a readable one of at most 64 KiB: cannot read /nonexistent/sa.json"
            )
        ) {
            try configuration(["firebase.projectId": "hale-petwash", "firebase.serviceAccount": "/nonexistent/sa.json"])
        }
    }

    @Test("The private key is never in an error message")
    func keyNeverInMessage() throws {
        let pem = try #require(Self.keyFile["private_key"])
        let broken = Self.json(["client_email": nil])
        do {
            _ = try configuration(["firebase.projectId": "hale-petwash", "firebase.serviceAccount": broken])
            Issue.record("a key file without client_email was accepted")
        } catch let error as ConfigError {
            for line in pem.split(separator: "\n") where line.count > 20 {
                #expect(!"\(error)".contains(line))
            }
        }
    }

    @Test("A service account without a project")
    func serviceAccountWithoutProject() {
        #expect(throws: ConfigError("firebase.serviceAccount needs firebase.projectId, the project it signs in to")) {
            try configuration(["firebase.serviceAccount": Self.json()])
        }
    }

    @Test(
        "A project id that is not one",
        arguments: [
            "Hale-Petwash", "hale", "hale_petwash", "1hale-petwash", "hale-petwash-", String(repeating: "a", count: 31),
        ])
    func badProjectID(projectID: String) {
        #expect(throws: ConfigError.self) { try configuration(["firebase.projectId": projectID]) }
    }

    @Test("Certificates over plain HTTP only on loopback")
    func certificatesURL() throws {
        #expect(throws: ConfigError.self) {
            try configuration([
                "firebase.projectId": "hale-petwash", "firebase.certificatesUrl": "http://example.com/certs",
            ])
        }
        _ = try configuration([
            "firebase.projectId": "hale-petwash", "firebase.certificatesUrl": "http://127.0.0.1:9/c",
        ])
    }

    @Test("FCM reads its key file with the same parser, and still needs project_id")
    func fcmServiceAccount() {
        #expect(
            throws: ConfigError("push.fcm.serviceAccount must be a service account JSON key: project_id is missing")
        ) {
            try configuration(["push.fcm.serviceAccount": Self.json(["project_id": nil])])
        }
        #expect(
            throws: ConfigError("push.fcm.serviceAccount must be a service account JSON key: private_key is missing")
        ) {
            try configuration(["push.fcm.serviceAccount": Self.json(["private_key": nil])])
        }
    }
}
