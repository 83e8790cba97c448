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
            case .transient(let reason): return .retry(reason)
            case .permanent(let reason): return .rejected(reason)
            }
        }
    }
}
