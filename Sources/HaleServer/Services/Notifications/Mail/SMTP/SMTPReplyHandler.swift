import NIOCore

/// The channel handler behind `SMTPConnection`: writes commands, parses replies and hands each reply to the one
/// caller waiting for it, failing that caller on errors, on close and after the reply timeout.
///
/// All methods must be called on the channel's event loop.
final class SMTPReplyHandler: ChannelInboundHandler {
    /// Bytes from the server.
    typealias InboundIn = ByteBuffer
    /// Bytes to the server.
    typealias OutboundOut = ByteBuffer

    /// Replies nobody asked for yet, e.g. a greeting that arrives before the client reads it. We never pipeline, so
    /// more than this means the server is misbehaving.
    private static let maximumQueuedReplies = 4

    private var parser = SMTPReplyParser()
    private var queuedReplies: [SMTPReply] = []
    private var waiter: EventLoopPromise<SMTPReply>?
    private var waiterTimeout: Scheduled<Void>?
    private var failure: SMTPError?
    private var context: ChannelHandlerContext?

    /// Creates a handler with nothing received yet.
    init() {}

    /// Remembers the context so commands can be written from outside the pipeline's callbacks.
    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// Forgets the context; any later request fails.
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        fail(.transient("connection closed"))
    }

    /// Feeds bytes to the parser and delivers every complete reply.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        parser.append(unwrapInboundIn(data))
        do {
            while let reply = try parser.nextReply() {
                deliver(reply)
            }
        } catch {
            fail(error)
        }
    }

    /// Fails the waiting caller with the classified error and closes the connection.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(SMTPError.classifying(error, during: "talking to the server"))
    }

    /// Fails the waiting caller: no reply can come any more.
    func channelInactive(context: ChannelHandlerContext) {
        fail(.transient("connection closed by the server"))
        context.fireChannelInactive()
    }

    /// Writes `command` (if any) and returns the next reply, failing after `timeout`.
    func exchange(
        _ command: ByteBuffer?,
        timeout: TimeAmount,
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<SMTPReply> {
        if !queuedReplies.isEmpty { return answerFromQueue(sending: command, on: eventLoop) }
        if let failure { return eventLoop.makeFailedFuture(failure) }
        guard waiter == nil, let context else {
            return eventLoop.makeFailedFuture(SMTPError.transient("connection is not ready for another command"))
        }
        let promise = eventLoop.makePromise(of: SMTPReply.self)
        waiter = promise
        waiterTimeout = eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            self.fail(.transient("timed out after \(timeout.nanoseconds / 1_000_000) ms waiting for the server"))
        }
        if let command { write(command, context: context) }
        return promise.futureResult
    }

    /// Throws if anything arrived after the last reply. Called right after the 220 to STARTTLS, so that plaintext a
    /// man in the middle appended cannot be read as if it came through TLS (CVE-2011-0411 style injection).
    func ensureNothingBuffered() throws(SMTPError) {
        guard !parser.hasBufferedInput, queuedReplies.isEmpty else {
            throw .permanent("server sent data after agreeing to STARTTLS; refusing to continue")
        }
    }

    /// A reply that arrived unasked is the answer to a read (the greeting, say), but never to a new command: we do
    /// not pipeline, so it would be taken for the answer to a command the server has not seen yet.
    private func answerFromQueue(
        sending command: ByteBuffer?,
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<SMTPReply> {
        let queued = queuedReplies.removeFirst()
        guard command == nil else {
            fail(.transient("server sent a reply nobody asked for: \(queued.summary)"))
            return eventLoop.makeFailedFuture(failure ?? .transient("connection closed"))
        }
        return eventLoop.makeSucceededFuture(queued)
    }

    private func write(_ command: ByteBuffer, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(command)).assumeIsolated().whenFailure { error in
            self.fail(SMTPError.classifying(error, during: "writing to the server"))
        }
    }

    private func deliver(_ reply: SMTPReply) {
        if let waiter = takeWaiter() {
            waiter.succeed(reply)
            return
        }
        queuedReplies.append(reply)
        if queuedReplies.count > Self.maximumQueuedReplies {
            fail(.transient("server sent more replies than commands"))
        }
    }

    /// Records the first failure, fails the waiting caller with it and closes the connection.
    private func fail(_ error: SMTPError) {
        if failure == nil { failure = error }
        takeWaiter()?.fail(failure ?? error)
        context?.close(promise: nil)
    }

    private func takeWaiter() -> EventLoopPromise<SMTPReply>? {
        waiterTimeout?.cancel()
        waiterTimeout = nil
        defer { waiter = nil }
        return waiter
    }
}
