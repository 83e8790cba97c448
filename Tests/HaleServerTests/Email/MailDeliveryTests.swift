import Foundation
import HaleTesting
import Logging
import SQLKit
import Synchronization
import Testing
import Vapor

@testable import HaleServer

/// The mail outbox's delivery: worded when sent, written as files without an SMTP server, emptied once sent, retried
/// when the transport fails for a while, given up when it refuses.
@Suite("Mail delivery")
struct MailDeliveryTests {
    @Test("without an SMTP server each mail is a file in email.directory, and the outbox forgets its data")
    func filesWithoutSMTP() async throws {
        let directory = try privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mails = directory.appendingPathComponent("mail")
        let settings = EmailAddressTests.settings.merging([
            "email.directory": mails.path, "email.productName": "Acme Health", "email.from": "no-reply@acme.example",
            "server.publicURL": "https://id.acme.example",
        ]) { $1 }
        try await withHale(settings: settings) { app in
            let (_, fresh) = try await makeSignedInAccount(app)
            _ = try await EmailAddressTests.API(app: app).requestCode("person@example.com", bearer: fresh)
            let code = try #require(try await Mailbox(app: app).code(to: "person@example.com"))
            let report = try await app.hale.mailDelivery.deliverDue(logger: Logger(label: "test"))
            #expect(report == MailDelivery.Report(sent: 1, retried: 0, dead: 0))
            let files = try FileManager.default.contentsOfDirectory(atPath: mails.path)
            #expect(files.count == 1 && files[0].hasSuffix(".eml"))
            let attributes = try FileManager.default.attributesOfItem(
                atPath: mails.appendingPathComponent(files[0]).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let text = try String(contentsOf: mails.appendingPathComponent(files[0]), encoding: .utf8)
            #expect(text.contains("Subject: \(code) is your Acme Health code"))
            #expect(text.contains("To: person@example.com"))
            #expect(text.contains("no-reply@acme.example"))
            #expect(text.contains("multipart/alternative"))
            let data = try await app.hale.database.sql.raw("SELECT data, status FROM mail_outbox").all()
            #expect(try data[0].decode(column: "data", as: String.self).isEmpty)
            #expect(try data[0].decode(column: "status", as: String.self) == "sent")
            #expect(try await app.hale.mailDelivery.deliverDue(logger: Logger(label: "test")) == MailDelivery.Report())
        }
    }

    @Test("a failing transport is retried with backoff, a refusing one gives up, an expired code is not sent")
    func retriesAndGivesUp() async throws {
        try await withHale(settings: EmailAddressTests.settings) { app in
            let clock = TestClock()
            let transport = ScriptedTransport(outcomes: [.retry("421 busy"), .rejected("550 no such user")])
            let delivery = MailDelivery(
                repository: SQLMailOutboxRepository(database: app.hale.database), transport: transport, sealer: nil,
                policy: PushRetryPolicy(maxAttempts: 3, firstDelay: .seconds(30), maxDelay: .seconds(60)) { 1 },
                sender: app.hale.mailDelivery.sender, clock: clock.clock)
            let outbox = MailOutbox(sealer: nil, clock: clock.clock)
            let address = try #require(EmailAddress("person@example.com"))
            try await SQLMailOutboxRepository(database: app.hale.database).enqueue([
                try outbox.message(.addressInUse, to: address, account: nil, data: [:])
            ])
            let logger = Logger(label: "test")
            #expect(try await delivery.deliverDue(logger: logger).retried == 1)
            #expect(try await delivery.deliverDue(logger: logger) == MailDelivery.Report(), "not due yet")
            clock.advance(.seconds(31))
            #expect(try await delivery.deliverDue(logger: logger).dead == 1)

            try await SQLMailOutboxRepository(database: app.hale.database).enqueue([
                try outbox.message(.emailCode, to: address, account: nil, data: ["code": "123456"], expiresIn: 600)
            ])
            clock.advance(.seconds(601))
            #expect(try await delivery.deliverDue(logger: logger).dead == 1)
            #expect(transport.sent.count == 2, "the expired code was never handed to the transport")
        }
    }

    @Test("every kind of mail has a subject, text and HTML, and HTML escapes what it quotes")
    func wording() throws {
        let context = MailContent.Context(productName: "Hale", accountPageURL: "https://id.example/account")
        for kind in MailKind.allCases {
            let data = [
                "code": "012345", "purpose": "verify_address", "address": "<b>@example.com",
                "alertKind": "new_passkey", "occurredAt": "2026-11-28T14:02:00Z",
            ]
            let content = try #require(MailContent(kind: kind, data: data, context: context), "\(kind)")
            #expect(!content.subject.isEmpty && !content.text.isEmpty)
            #expect(!content.html.contains("<b>@"), "\(kind)")
        }
        #expect(MailContent(kind: .emailCode, data: [:], context: context) == nil)
        let alert = try #require(
            MailContent(
                kind: .securityAlert,
                data: ["alertKind": "new_passkey", "device": "Chrome on Linux", "occurredAt": "2026-11-28T14:02:00Z"],
                context: context))
        #expect(
            alert.text.contains("New passkey added on your Hale account from Chrome on Linux at 2026-11-28T14:02:00Z."))
        #expect(alert.text.contains("Manage your account: https://id.example/account"))
    }
}

/// A transport that answers from a script and remembers what it was given.
final class ScriptedTransport: MailTransport {
    private let state: Mutex<(outcomes: [MailSendOutcome], sent: [OutgoingMail])>

    init(outcomes: [MailSendOutcome]) {
        state = Mutex((outcomes, []))
    }

    /// What it was given, in order.
    var sent: [OutgoingMail] { state.withLock { $0.sent } }

    func send(_ mail: OutgoingMail) async -> MailSendOutcome {
        state.withLock { state in
            state.sent.append(mail)
            return state.outcomes.isEmpty ? .delivered : state.outcomes.removeFirst()
        }
    }
}
