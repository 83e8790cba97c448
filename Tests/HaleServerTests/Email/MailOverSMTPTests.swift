import Foundation
import HaleTesting
import Logging
import Testing
import Vapor

@testable import HaleServer

/// Hale configured with `email.smtp.*` against a real aiosmtpd over STARTTLS: a code asked for over HTTP leaves the
/// outbox, arrives, and verifies the address; a server Hale cannot trust gets nothing and the mail waits to retry.
@Suite(
    "Mail delivery over SMTP to aiosmtpd",
    .serialized,
    .enabled(
        if: TestPython.canRunSMTPServer,
        "needs aiosmtpd importable by $HALE_TEST_PYTHON (or python3) and the openssl command"))
struct MailOverSMTPTests {
    private let certificates: TestCertificates

    init() throws {
        certificates = try #require(TestCertificates.shared, "openssl could not make the test certificates")
    }

    private func settings(port: Int, caFile: String) -> [String: String] {
        EmailAddressTests.settings.merging([
            "email.smtp.host": "localhost", "email.smtp.port": String(port), "email.smtp.security": "starttls",
            "email.smtp.username": "hale", "email.smtp.password": "mail-secret", "email.smtp.caFile": caFile,
            "email.from": "no-reply@hale.example", "email.productName": "Hale Test",
        ]) { $1 }
    }

    @Test("a code asked for over HTTP is submitted over STARTTLS with AUTH, arrives, and verifies the address")
    func codeArrives() async throws {
        let server = try await TestSMTPServer.start(
            .init(startTLS: true, credentials: ("hale", "mail-secret")), certificates: certificates)
        defer { server.removeFiles() }
        do {
            try await withHale(settings: settings(port: server.port, caFile: certificates.caPath)) { app in
                let (_, fresh) = try await makeSignedInAccount(app)
                let api = EmailAddressTests.API(app: app)
                #expect(try await api.requestCode("person@example.com", bearer: fresh).status == .accepted)
                let report = try await app.hale.mailDelivery.deliverDue(logger: Logger(label: "test"))
                #expect(report == MailDelivery.Report(sent: 1, retried: 0, dead: 0))
                let received = try server.receivedMessages()
                try #require(received.count == 1)
                let parsed = try TestPython.parseMail(at: received[0])
                #expect(parsed.defects.isEmpty)
                let code = try #require(parsed.subject.wholeMatch(of: /(\d{6}) is your Hale Test code/)?.1)
                #expect(parsed.from == "Hale Test <no-reply@hale.example>")
                let verified = try await api.verify("person@example.com", code: String(code), bearer: fresh)
                #expect(verified.status == .ok, "\(verified.body.string)")
                #expect(!server.transcript().contains("mail-secret"), "no credential before TLS")
            }
        } catch {
            _ = await server.stop()
            throw error
        }
        #expect(await server.stop())
    }

    @Test("a server whose certificate Hale does not trust gets nothing; the mail waits to be retried")
    func untrustedServer() async throws {
        let server = try await TestSMTPServer.start(
            .init(startTLS: true, credentials: ("hale", "mail-secret")), certificates: certificates)
        defer { server.removeFiles() }
        do {
            try await withHale(settings: settings(port: server.port, caFile: certificates.otherCAPath)) { app in
                let (_, fresh) = try await makeSignedInAccount(app)
                _ = try await EmailAddressTests.API(app: app).requestCode("person@example.com", bearer: fresh)
                let report = try await app.hale.mailDelivery.deliverDue(logger: Logger(label: "test"))
                #expect(report.retried == 1, "fixing the settings lets the waiting mail through")
                #expect(try server.receivedMessages().isEmpty)
                #expect(!server.transcript().contains("mail-secret"))
            }
        } catch {
            _ = await server.stop()
            throw error
        }
        #expect(await server.stop())
    }
}
