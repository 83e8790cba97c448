import NIOCore
import NIOPosix
import NIOSSL

/// One TCP (or TLS) connection to an SMTP server, used strictly one command and one reply at a time.
struct SMTPConnection: Sendable {
    /// The underlying channel.
    let channel: any Channel
    private let handler: NIOLoopBound<SMTPReplyHandler>
    private let replyTimeout: TimeAmount

    private init(channel: any Channel, handler: NIOLoopBound<SMTPReplyHandler>, replyTimeout: TimeAmount) {
        self.channel = channel
        self.handler = handler
        self.replyTimeout = replyTimeout
    }

    /// Connects to the server in `settings`; with `.implicitTLS` the TLS handshake starts at once.
    static func open(
        settings: SMTPSettings,
        tlsContext: NIOSSLContext,
        on group: any EventLoopGroup
    ) async throws(SMTPError) -> SMTPConnection {
        let implicitTLS = settings.security == .implicitTLS
        let host = settings.host
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(settings.connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if implicitTLS { try pipeline.addHandler(SMTPTLS.makeHandler(context: tlsContext, host: host)) }
                    try pipeline.addHandler(SMTPReplyHandler())
                }
            }
        // The handler is fetched in a callback on the event loop, before any byte can be read, so that no failure
        // (a refused certificate, say) can close the channel and remove the handler before we hold it.
        let connection = bootstrap.connect(host: host, port: settings.port).flatMapThrowing { channel in
            let handler = try channel.pipeline.syncOperations.handler(type: SMTPReplyHandler.self)
            let bound = NIOLoopBound(handler, eventLoop: channel.eventLoop)
            return SMTPConnection(channel: channel, handler: bound, replyTimeout: settings.replyTimeout)
        }
        do {
            return try await connection.get()
        } catch {
            throw .classifying(error, during: "connecting to \(host):\(settings.port)")
        }
    }

    /// Reads the next reply without sending anything, e.g. the greeting.
    func readReply(timeout: TimeAmount? = nil) async throws(SMTPError) -> SMTPReply {
        try await exchange(nil, timeout: timeout)
    }

    /// Sends one command line (CRLF is appended) and returns the server's reply.
    func send(_ command: String, timeout: TimeAmount? = nil) async throws(SMTPError) -> SMTPReply {
        try await exchange(ByteBuffer(string: command + "\r\n"), timeout: timeout)
    }

    /// Sends raw bytes, e.g. the dot-stuffed message, and returns the server's reply.
    func send(bytes: [UInt8]) async throws(SMTPError) -> SMTPReply {
        try await exchange(ByteBuffer(bytes: bytes), timeout: nil)
    }

    /// Puts TLS under the SMTP handler after the server's 220 to STARTTLS. Later commands wait for the handshake.
    func startTLS(context: NIOSSLContext, host: String) async throws(SMTPError) {
        let handler = self.handler
        let upgrade = channel.eventLoop.submit { [channel] in
            try handler.value.ensureNothingBuffered()
            let tlsHandler = try SMTPTLS.makeHandler(context: context, host: host)
            try channel.pipeline.syncOperations.addHandler(tlsHandler, position: .first)
        }
        do {
            try await upgrade.get()
        } catch {
            throw .classifying(error, during: "starting TLS")
        }
    }

    /// Closes the connection; never throws, whatever state the connection is in.
    func close() async {
        try? await channel.close()
    }

    private func exchange(_ command: ByteBuffer?, timeout: TimeAmount?) async throws(SMTPError) -> SMTPReply {
        let handler = self.handler
        let timeout = timeout ?? replyTimeout
        let reply = channel.eventLoop.flatSubmit { [channel] in
            handler.value.exchange(command, timeout: timeout, on: channel.eventLoop)
        }
        do {
            return try await reply.get()
        } catch {
            throw .classifying(error, during: "waiting for the server")
        }
    }
}
