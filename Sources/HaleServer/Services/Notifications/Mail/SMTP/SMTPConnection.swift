import NIOCore
import NIOPosix
import NIOSSL

/// One TCP (or TLS) connection to an SMTP server, used strictly one command and one reply at a time.
struct SMTPConnection: Sendable {
    /// The underlying channel.
    let channel: any Channel
    /// Holds the handler even after a failure has removed it from the pipeline, so its recorded error is not lost.
    private let handler: NIOLoopBoundBox<SMTPReplyHandler?>
    private let replyTimeout: TimeAmount

    private init(channel: any Channel, handler: NIOLoopBoundBox<SMTPReplyHandler?>, replyTimeout: TimeAmount) {
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
        // The channel is pinned to one loop so the box for its handler can be made before the channel exists.
        let eventLoop = group.next()
        let handlerBox = NIOLoopBoundBox.makeEmptyBox(valueType: SMTPReplyHandler.self, eventLoop: eventLoop)
        let bootstrap = makeBootstrap(settings: settings, tlsContext: tlsContext, on: eventLoop, handlerBox: handlerBox)
        do {
            let channel = try await bootstrap.connect(host: settings.host, port: settings.port).get()
            return SMTPConnection(channel: channel, handler: handlerBox, replyTimeout: settings.replyTimeout)
        } catch {
            throw .classifying(error, during: "connecting to \(settings.host):\(settings.port)")
        }
    }

    private static func makeBootstrap(
        settings: SMTPSettings,
        tlsContext: NIOSSLContext,
        on eventLoop: any EventLoop,
        handlerBox: NIOLoopBoundBox<SMTPReplyHandler?>
    ) -> ClientBootstrap {
        let implicitTLS = settings.security == .implicitTLS
        let host = settings.host
        return ClientBootstrap(group: eventLoop)
            .connectTimeout(settings.connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if implicitTLS { try pipeline.addHandler(SMTPTLS.makeHandler(context: tlsContext, host: host)) }
                    let handler = SMTPReplyHandler()
                    handlerBox.value = handler
                    try pipeline.addHandler(handler)
                }
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
            guard let handler = handler.value else { throw SMTPError.transient("connection is not set up") }
            try handler.ensureNothingBuffered()
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
        let reply = channel.eventLoop.flatSubmit { [channel] () -> EventLoopFuture<SMTPReply> in
            guard let handler = handler.value else {
                return channel.eventLoop.makeFailedFuture(SMTPError.transient("connection is not set up"))
            }
            return handler.exchange(command, timeout: timeout, on: channel.eventLoop)
        }
        do {
            return try await reply.get()
        } catch {
            throw .classifying(error, during: "waiting for the server")
        }
    }
}
