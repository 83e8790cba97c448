import NIOCore
import NIOPosix
import Testing

@testable import HaleServer

/// Failures provoked with an in-process server that misbehaves on purpose; these need no Python.
@Suite("SMTP client failures")
struct SMTPClientFailureTests {
    private let mail = OutgoingMail(
        fromAddress: "noreply@hale.example", toAddress: "ada@example.org", subject: "Hi", textBody: "Hi",
        htmlBody: "<p>Hi</p>")

    /// The error sending `mail` ends in. Only the test of a silent server waits for a short reply timeout: the
    /// others answer at once, and a loaded machine must not turn their answer into a timeout.
    private func sendError(_ mail: OutgoingMail, port: Int, replyTimeout: TimeAmount = .seconds(20)) async -> SMTPError?
    {
        let settings = SMTPSettings(
            host: "127.0.0.1", port: port, security: .startTLS,
            credentials: SMTPCredentials(username: "u", password: "secret-pw"), connectTimeout: .seconds(5),
            replyTimeout: replyTimeout)
        do {
            try await SMTPClient.send(mail, settings: settings, on: MultiThreadedEventLoopGroup.singleton)
            return nil
        } catch {
            return error
        }
    }

    @Test func nothingListeningIsTransient() async throws {
        let error = await sendError(mail, port: try await ScriptedSMTPServer.unusedPort())
        #expect(error?.isTransient == true)
        #expect(error?.reason.contains("connecting to 127.0.0.1") == true, "\(String(describing: error))")
    }

    @Test func invalidMailIsPermanentWithoutConnecting() async throws {
        var bad = mail
        bad.subject = "Hi\r\nBcc: victim@example.org"
        #expect(await sendError(bad, port: try await ScriptedSMTPServer.unusedPort())?.isTransient == false)
    }

    @Test func silentServerTimesOutAsTransient() async throws {
        let server = try await ScriptedSMTPServer.start(greeting: nil) { _ in nil }
        defer { Task { await server.stop() } }
        let error = await sendError(mail, port: server.port, replyTimeout: .milliseconds(500))
        #expect(error?.isTransient == true)
        #expect(error?.reason.contains("timed out") == true, "\(String(describing: error))")
    }

    @Test func endlessReplyLineIsRefused() async throws {
        let flood = String(repeating: "2", count: 64 * 1024)
        let server = try await ScriptedSMTPServer.start(greeting: flood) { _ in nil }
        defer { Task { await server.stop() } }
        let error = await sendError(mail, port: server.port)
        #expect(error?.isTransient == true)
        #expect(error?.reason.contains("longer than") == true, "\(String(describing: error))")
    }

    @Test func rejectedRecipientIsPermanentAndServerTextIsKept() async throws {
        let server = try await ScriptedSMTPServer.start(greeting: "220 hi\r\n") { command in
            command.hasPrefix("EHLO") ? "250-hi\r\n250 STARTTLS\r\n" : "554 5.7.1 go away\r\n"
        }
        defer { Task { await server.stop() } }
        let error = await sendError(mail, port: server.port)
        #expect(error == .permanent("server replied 554 5.7.1 go away to STARTTLS"))
    }

    @Test func busyServerIsTransient() async throws {
        let server = try await ScriptedSMTPServer.start(greeting: "421 4.3.2 too busy\r\n") { _ in nil }
        defer { Task { await server.stop() } }
        #expect(await sendError(mail, port: server.port)?.isTransient == true)
    }

    @Test func plaintextInjectedAfterStartTLSIsRefused() async throws {
        let server = try await ScriptedSMTPServer.start(greeting: "220 hi\r\n") { command in
            switch command {
            case let ehlo where ehlo.hasPrefix("EHLO"): "250-hi\r\n250-AUTH PLAIN\r\n250 STARTTLS\r\n"
            case "STARTTLS": "220 go ahead\r\n250-injected\r\n250 AUTH PLAIN\r\n"
            default: "500 unexpected\r\n"
            }
        }
        defer { Task { await server.stop() } }
        let error = await sendError(mail, port: server.port)
        #expect(error?.isTransient == false)
        #expect(error?.reason.contains("after agreeing to STARTTLS") == true, "\(String(describing: error))")
    }
}
