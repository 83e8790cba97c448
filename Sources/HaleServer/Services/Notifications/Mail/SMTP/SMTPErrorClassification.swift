import NIOCore

extension SMTPError {
    /// Classifies any failure met during `step` (e.g. "connecting to mail.example.org:587").
    ///
    /// Errors that are already `SMTPError` pass through unchanged; connection-level trouble is transient.
    static func classifying(_ error: any Error, during step: String) -> SMTPError {
        if let error = error as? SMTPError { return error }
        if let error = error as? MailFormatError { return .rejected("invalid mail: \(error)") }
        if let error = SMTPTLS.classify(error) { return error }
        if let error = error as? ChannelError, isConnectTimeout(error) {
            return .transient("timed out \(step)")
        }
        return .transient("\(step) failed: \(error)")
    }

    /// The error for a reply other than the one `command` should have received: 4xx is transient, 5xx permanent
    /// (and a rejection of the message itself when it answers one of `messageCommands`), anything else a protocol
    /// violation (transient). `command` names the verb only, never its arguments.
    static func unexpected(_ reply: SMTPReply, to command: String) -> SMTPError {
        let reason = "server replied \(reply.summary) to \(command)"
        if reply.isPermanentNegative {
            return messageCommands.contains(command) ? .rejected(reason) : .permanent(reason)
        }
        if reply.isTransientNegative { return .transient(reason) }
        return .transient("unexpected " + reason)
    }

    /// The commands whose 5xx reply refuses this message rather than every message.
    static let messageCommands: Set<String> = ["MAIL FROM", "RCPT TO", "DATA", "the message content"]

    /// The error for a failed AUTH exchange. Only the code is kept: server text could echo what was sent.
    static func authenticationFailed(_ reply: SMTPReply) -> SMTPError {
        if reply.code == 535 { return .permanent("authentication rejected by the server (535): wrong credentials") }
        if reply.isTransientNegative { return .transient("authentication temporarily failed (\(reply.code))") }
        return .permanent("authentication failed (\(reply.code))")
    }

    private static func isConnectTimeout(_ error: ChannelError) -> Bool {
        if case .connectTimeout = error { return true }
        return false
    }
}
