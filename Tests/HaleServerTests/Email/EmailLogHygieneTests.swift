import Foundation
import HaleTesting
import Logging
import Testing
import Vapor

@testable import HaleServer

/// Codes, claim tokens and the addresses' mail never reach the log: the journeys that mail them run with every log
/// line captured, delivery included, and the log is searched for each secret.
@Suite("Log hygiene: email")
struct EmailLogHygieneTests {
    @Test("email, recovery and step-up codes and claim tokens are never logged")
    func noCodeIsLogged() async throws {
        let capture = LogCapture()
        try await withHale(settings: EmailAddressTests.settings.merging(["logging.level": "trace"]) { $1 }) { app in
            app.logger = capture.logger()
            var secrets: [String] = []
            let (_, fresh) = try await makeSignedInAccount(app)
            let api = EmailRecoveryTests.API(app: app)
            _ = try await EmailAddressTests.API(app: app).requestCode("person@example.com", bearer: fresh)
            secrets.append(try #require(try await Mailbox(app: app).code(to: "person@example.com")))
            _ = try await EmailAddressTests.API(app: app).verify("person@example.com", code: secrets[0], bearer: fresh)
            let waiting = try await api.recover("person@example.com").json()
            secrets.append(try #require(waiting["claimToken"] as? String))
            secrets.append(try #require(try await Mailbox(app: app).code(to: "person@example.com")))
            _ = try await api.claim(waiting)
            _ = try await app.hale.mailDelivery.deliverDue(logger: capture.logger())

            let logged = capture.text
            #expect(logged.contains("mail sent"), "delivery is logged, by kind and id")
            for secret in secrets {
                #expect(!Self.contains(logged, standalone: secret), "a code or claim token reached the log")
            }
        }
    }

    /// Whether `secret` appears in `text` other than inside a longer run of hex digits or letters: six digits can
    /// turn up inside a request id's UUID by chance, never on their own.
    static func contains(_ text: String, standalone secret: String) -> Bool {
        var searchStart = text.startIndex
        while let found = text.range(of: secret, range: searchStart..<text.endIndex) {
            let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : " "
            let after = found.upperBound < text.endIndex ? text[found.upperBound] : " "
            if !before.isHexDigit && !before.isLetter && !after.isHexDigit && !after.isLetter { return true }
            searchStart = found.upperBound
        }
        return false
    }
}
