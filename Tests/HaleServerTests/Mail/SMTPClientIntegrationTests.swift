import Foundation
import NIOPosix
import Testing

@testable import HaleServer

/// End-to-end tests against a real SMTP server: aiosmtpd, started from `scripts/smtp-test-server.py`.
///
/// Skipped (and reported as skipped) when the Python in `$HALE_TEST_PYTHON`, or `python3`, cannot import aiosmtpd,
/// or when `openssl` is missing to make the throwaway certificates.
@Suite(
    "SMTP client against aiosmtpd",
    .serialized,
    .enabled(
        if: TestPython.canRunSMTPServer,
        "needs aiosmtpd importable by $HALE_TEST_PYTHON (or python3) and the openssl command"))
struct SMTPClientIntegrationTests {
    private static let user = "hale-mailer"
    private static let password = "correct horse battery staple"
    private static let subject = "Grüße aus Köln – Bestätigung ✓"
    private static let textBody = "Hallo Zoë,\n.this line starts with a dot\n..and this with two\n.\nBye"
    private static let htmlBody = "<p>Hallo Zoë,</p>\n.<p>dot line</p>\n<p>Bye</p>"

    private let certificates: TestCertificates

    /// Fails (rather than skips) when openssl is present but could not make the certificates.
    init() throws {
        certificates = try #require(TestCertificates.shared, "openssl could not make the test certificates")
    }

    private var mail: OutgoingMail {
        OutgoingMail(
            fromAddress: "noreply@hale.example", fromName: "Hale Über-Server", toAddress: "zoe@example.org",
            subject: Self.subject, textBody: Self.textBody, htmlBody: Self.htmlBody)
    }

    private func settings(
        port: Int,
        security: SMTPSecurity = .startTLS,
        password: String = Self.password,
        caPath: String?? = .none,
        host: String = "localhost"
    ) -> SMTPSettings {
        SMTPSettings(
            host: host, port: port, security: security,
            credentials: SMTPCredentials(username: Self.user, password: password),
            trustedCAFilePath: caPath ?? certificates.caPath, replyTimeout: .seconds(10))
    }

    private func withServer(
        _ options: TestSMTPServer.Options,
        _ body: (TestSMTPServer) async throws -> Void
    ) async throws {
        let server = try await TestSMTPServer.start(options, certificates: certificates)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        #expect(await server.stop(), "the test server exits with status 0 on SIGTERM")
        server.removeFiles()
    }

    private func sendError(_ mail: OutgoingMail, _ settings: SMTPSettings) async -> SMTPError? {
        do {
            try await SMTPClient.send(mail, settings: settings, on: MultiThreadedEventLoopGroup.singleton)
            return nil
        } catch {
            return error
        }
    }

    private func expectDeliveredIntact(_ server: TestSMTPServer) throws {
        let messages = try server.receivedMessages()
        try #require(messages.count == 1)
        let parsed = try TestPython.parseMail(at: messages[0])
        #expect(parsed.defects.isEmpty)
        #expect(parsed.subject == Self.subject)
        #expect(parsed.from == "Hale Über-Server <noreply@hale.example>")
        #expect(parsed.to == "zoe@example.org")
        #expect(parsed.contentType == "multipart/alternative")
        #expect(parsed.parts.map(\.type) == ["text/plain", "text/html"])
        #expect(parsed.parts.first?.content == Self.textBody)
        #expect(parsed.parts.last?.content == Self.htmlBody)
        let raw = try Data(contentsOf: URL(fileURLWithPath: messages[0]))
        #expect(String(decoding: raw, as: UTF8.self).contains("\r\n.this line starts with a dot\r\n"))
    }

    @Test func deliversOverStartTLSWithAuthPlain() async throws {
        try await withServer(.init(startTLS: true, credentials: (Self.user, Self.password))) { server in
            #expect(await sendError(mail, settings(port: server.port)) == nil)
            try expectDeliveredIntact(server)
            let transcript = server.transcript()
            let startTLS = try #require(transcript.range(of: "STARTTLS"))
            let auth = try #require(transcript.range(of: "AUTH PLAIN"))
            #expect(startTLS.upperBound <= auth.lowerBound, "AUTH only after STARTTLS")
            #expect(transcript.contains("MAIL FROM:<noreply@hale.example> SIZE="))
            #expect(transcript.hasSuffix("QUIT\r\n"))
        }
    }

    @Test func fallsBackToAuthLogin() async throws {
        let options = TestSMTPServer.Options(
            startTLS: true, credentials: (Self.user, Self.password), authMechanisms: "LOGIN")
        try await withServer(options) { server in
            #expect(await sendError(mail, settings(port: server.port)) == nil)
            try expectDeliveredIntact(server)
            #expect(server.transcript().contains("AUTH LOGIN\r\n"))
        }
    }

    @Test func deliversOverImplicitTLSToAnIPAddress() async throws {
        try await withServer(.init(implicitTLS: true, credentials: (Self.user, Self.password))) { server in
            let settings = settings(port: server.port, security: .implicitTLS, host: "127.0.0.1")
            #expect(await sendError(mail, settings) == nil)
            try expectDeliveredIntact(server)
        }
    }

    @Test func wrongPasswordIsPermanentAndNotEchoed() async throws {
        try await withServer(.init(startTLS: true, credentials: (Self.user, Self.password))) { server in
            let error = await sendError(mail, settings(port: server.port, password: "wrong-password-123"))
            #expect(error?.isTransient == false)
            #expect(error?.reason.contains("authentication rejected") == true)
            #expect(error?.description.contains("wrong-password-123") == false)
            let received = try server.receivedMessages()
            #expect(received.isEmpty)
        }
    }

    @Test(arguments: [TrustCase.systemRoots, .otherCA])
    func untrustedCertificateIsPermanentAndNothingIsSent(_ trust: TrustCase) async throws {
        try await withServer(.init(startTLS: true, credentials: (Self.user, Self.password))) { server in
            let caPath: String?? = trust == .systemRoots ? .some(nil) : .some(certificates.otherCAPath)
            let error = await sendError(mail, settings(port: server.port, caPath: caPath))
            #expect(error?.isTransient == false)
            #expect(error?.reason.contains("certificate was not trusted") == true, "\(String(describing: error))")
            let received = try server.receivedMessages()
            #expect(received.isEmpty)
            #expect(!server.transcript().contains("AUTH"))
        }
    }

    @Test func certificateForAnotherHostIsNotTrusted() async throws {
        try await withServer(.init(implicitTLS: true, host: "127.0.0.2")) { server in
            let error = await sendError(mail, settings(port: server.port, security: .implicitTLS, host: "127.0.0.2"))
            #expect(error?.isTransient == false)
            #expect(error?.reason.contains("certificate was not trusted") == true, "\(String(describing: error))")
            let received = try server.receivedMessages()
            #expect(received.isEmpty)
        }
    }

    @Test func serverWithoutStartTLSIsRefusedBeforeAnyCredentials() async throws {
        try await withServer(.init(credentials: (Self.user, Self.password))) { server in
            let error = await sendError(mail, settings(port: server.port))
            #expect(error == .permanent("the server does not offer STARTTLS; refusing to send without TLS"))
            let received = try server.receivedMessages()
            #expect(received.isEmpty)
            let transcript = server.transcript()
            #expect(transcript.hasPrefix("EHLO localhost\r\n"))
            #expect(!transcript.contains("AUTH") && !transcript.contains("MAIL") && !transcript.contains("horse"))
        }
    }

    /// Which trust roots the client uses in the untrusted-certificate test.
    enum TrustCase: Sendable, CustomTestStringConvertible {
        /// No CA file: the system roots, which do not include the throwaway CA.
        case systemRoots
        /// A CA file holding a different CA.
        case otherCA

        var testDescription: String { self == .systemRoots ? "system roots" : "a different CA" }
    }
}
