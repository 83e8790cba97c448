import Foundation
import SocialTokens
import Testing

/// A service account key file is read strictly, and its key never shows in a description.
@Suite("Google service account key files")
struct GoogleServiceAccountTests {
    /// The fixture's key file, as a dictionary to change.
    static var file: [String: Any] {
        try! JSONSerialization.jsonObject(with: Data(AdminSDKFixture.serviceAccountJSON.utf8)) as! [String: Any]
    }

    private func read(_ file: [String: Any]) throws(GoogleServiceAccount.Malformed) -> GoogleServiceAccount {
        try GoogleServiceAccount(json: Array(try! JSONSerialization.data(withJSONObject: file)))
    }

    @Test("A key file as the Firebase console hands it out")
    func valid() throws {
        let account = try read(Self.file)
        #expect(account.clientEmail == "firebase-adminsdk-test@hale-petwash-test.iam.gserviceaccount.com")
        #expect(account.privateKeyID == "0123456789abcdef0123456789abcdef01234567")
        #expect(account.projectID == "hale-petwash-test")
        #expect(account.tokenURI == "https://oauth2.googleapis.com/token")
    }

    @Test(
        "Each thing that makes a key file unusable is named, never its value",
        arguments: [
            ("client_email", nil, "client_email is missing"), ("client_email", "", "client_email is missing"),
            ("client_email", "a b@example.com", "client_email is missing"),
            ("client_email", 7, "client_email is not a string"), ("private_key", nil, "private_key is missing"),
            (
                "private_key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
                "private_key is not an RSA key of 2048 bits or more in PEM"
            ),
            ("private_key_id", 12, "private_key_id is not a string"),
            ("project_id", true, "project_id is not a string"),
            ("type", "authorized_user", "type is not service_account"),
        ] as [(String, (any Sendable)?, String)])
    func malformed(member: String, value: (any Sendable)?, reason: String) {
        var file = Self.file
        file[member] = value
        #expect(throws: GoogleServiceAccount.Malformed(reason: reason)) { try read(file) }
    }

    @Test("Not a JSON object", arguments: ["", "[]", "{", "\"x\""])
    func notAnObject(text: String) {
        #expect(throws: GoogleServiceAccount.Malformed(reason: "it is not a JSON object of at most 64 KiB")) {
            try GoogleServiceAccount(json: Array(text.utf8))
        }
    }

    @Test("Its description, debug description and mirror leave the key out")
    func redacted() throws {
        let account = try read(Self.file)
        let key = try #require(Self.file["private_key"] as? String)
        let bodyLine = try #require(key.split(separator: "\n").dropFirst().first.map(String.init))
        for text in [
            String(describing: account), String(reflecting: account),
            "\(Mirror(reflecting: account).children.map(\.value))",
        ] {
            #expect(!text.contains(bodyLine))
            #expect(text.contains("<redacted>"))
        }
    }
}
