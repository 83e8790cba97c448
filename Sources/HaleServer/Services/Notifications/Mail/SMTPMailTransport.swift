import NIOCore
import NIOPosix

/// Submits each mail to the configured SMTP server, over TLS always (`SMTPClient`), one connection per mail.
struct SMTPMailTransport: MailTransport {
    let settings: SMTPSettings

    func send(_ mail: OutgoingMail) async -> MailSendOutcome {
        do throws(SMTPError) {
            try await SMTPClient.send(mail, settings: settings, on: MultiThreadedEventLoopGroup.singleton)
            return .delivered
        } catch {
            switch error {
            // A server or settings problem holds every mail alike: the outbox keeps retrying it, with backoff, so
            // the mail waiting goes out once the settings or the server are fixed.
            case .transient(let reason), .permanent(let reason): return .retry(reason)
            case .rejected(let reason): return .rejected(reason)
            }
        }
    }
}
