import NIOCore
import NIOSSL

/// Submits mail to an SMTP server over TLS, one connection per message.
enum SMTPClient {
    /// How long to wait for the reply to QUIT once the message has been accepted.
    static let quitTimeout: TimeAmount = .seconds(5)

    /// Delivers `mail` to the server in `settings`.
    ///
    /// The message is rendered and checked before connecting. The connection is closed on every path.
    /// Throws `SMTPError.transient` when a retry may succeed and `SMTPError.permanent` when it will not.
    static func send(
        _ mail: OutgoingMail,
        settings: SMTPSettings,
        on group: any EventLoopGroup
    ) async throws(SMTPError) {
        try settings.validate()
        let message = try renderForData(mail)
        let tlsContext = try SMTPTLS.makeContext(trustedCAFilePath: settings.trustedCAFilePath)
        let connection = try await SMTPConnection.open(settings: settings, tlsContext: tlsContext, on: group)
        let session = SMTPSession(connection: connection, settings: settings, tlsContext: tlsContext)
        do {
            try await session.deliver(message, from: mail.fromAddress, to: mail.toAddress)
        } catch {
            await connection.close()
            throw error
        }
        await session.quit()
        await connection.close()
    }

    /// The rendered, dot-stuffed message ready for the DATA phase, or a permanent error if `mail` is invalid.
    static func renderForData(_ mail: OutgoingMail) throws(SMTPError) -> [UInt8] {
        do {
            return SMTPDotStuffing.encode(try MIMEMessage.render(mail))
        } catch {
            throw .rejected("invalid mail: \(error)")
        }
    }
}
