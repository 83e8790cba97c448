import NIOCore
import NIOSSL

/// The SMTP conversation for one message on an open connection: greeting, EHLO, TLS, AUTH, envelope, DATA.
struct SMTPSession: Sendable {
    /// The connection the conversation runs on.
    let connection: SMTPConnection
    /// Host, security, credentials and timeouts.
    let settings: SMTPSettings
    /// The verifying TLS context, used for STARTTLS.
    let tlsContext: NIOSSLContext

    /// Runs the conversation up to the server's acceptance of `message` (already dot-stuffed and terminated).
    func deliver(_ message: [UInt8], from sender: String, to recipient: String) async throws(SMTPError) {
        try await expectGreeting()
        let capabilities = try await establishTLS()
        if let credentials = settings.credentials {
            try await authenticate(credentials, capabilities: capabilities)
        }
        try await sendEnvelope(from: sender, to: recipient, size: message.count, capabilities: capabilities)
        try await sendData(message)
    }

    /// Says goodbye politely; failures are ignored because the message has already been accepted.
    func quit() async {
        _ = try? await connection.send("QUIT", timeout: SMTPClient.quitTimeout)
    }

    private func expectGreeting() async throws(SMTPError) {
        let greeting = try await connection.readReply()
        guard greeting.code == 220 else { throw .unexpected(greeting, to: "connecting (greeting)") }
    }

    /// Returns the capabilities announced over TLS; with STARTTLS, those from before TLS are discarded (RFC 3207).
    private func establishTLS() async throws(SMTPError) -> SMTPCapabilities {
        let capabilities = try await hello()
        guard settings.security == .startTLS else { return capabilities }
        guard capabilities.supportsStartTLS else {
            throw .permanent("the server does not offer STARTTLS; refusing to send without TLS")
        }
        let reply = try await connection.send("STARTTLS")
        guard reply.code == 220 else { throw .unexpected(reply, to: "STARTTLS") }
        try await connection.startTLS(context: tlsContext, host: settings.host)
        return try await hello()
    }

    private func hello() async throws(SMTPError) -> SMTPCapabilities {
        let reply = try await connection.send("EHLO \(settings.heloName)")
        guard reply.code == 250 else { throw .unexpected(reply, to: "EHLO") }
        return SMTPCapabilities(ehloReply: reply)
    }

    /// Only ever called after `establishTLS`, so credentials never travel in clear text.
    private func authenticate(_ credentials: SMTPCredentials, capabilities: SMTPCapabilities) async throws(SMTPError) {
        guard let mechanism = SMTPAuthentication.chooseMechanism(offered: capabilities.authMechanisms) else {
            throw .permanent("the server offers neither AUTH PLAIN nor AUTH LOGIN")
        }
        try await SMTPAuthentication.authenticate(credentials, using: mechanism, over: connection)
    }

    private func sendEnvelope(
        from sender: String,
        to recipient: String,
        size: Int,
        capabilities: SMTPCapabilities
    ) async throws(SMTPError) {
        if let limit = capabilities.maximumMessageSize, size > limit {
            throw .rejected("message is \(size) bytes but the server accepts at most \(limit)")
        }
        let sizeParameter = capabilities.supportsSize ? " SIZE=\(size)" : ""
        let mailReply = try await connection.send("MAIL FROM:<\(sender)>\(sizeParameter)")
        guard mailReply.code == 250 else { throw .unexpected(mailReply, to: "MAIL FROM") }
        let recipientReply = try await connection.send("RCPT TO:<\(recipient)>")
        guard [250, 251].contains(recipientReply.code) else { throw .unexpected(recipientReply, to: "RCPT TO") }
    }

    private func sendData(_ message: [UInt8]) async throws(SMTPError) {
        let dataReply = try await connection.send("DATA")
        guard dataReply.code == 354 else { throw .unexpected(dataReply, to: "DATA") }
        let acceptance = try await connection.send(bytes: message)
        guard acceptance.code == 250 else { throw .unexpected(acceptance, to: "the message content") }
    }
}
