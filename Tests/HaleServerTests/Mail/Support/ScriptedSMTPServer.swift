import Foundation
import NIOCore
import NIOPosix

/// An in-process server that misbehaves on purpose: it answers each command line with whatever the script says,
/// for tests of timeouts, limits and STARTTLS injection that a well-behaved server cannot provoke.
struct ScriptedSMTPServer: Sendable {
    /// Returns the raw bytes to send for one received command line (without CRLF), or nil to stay silent.
    typealias Script = @Sendable (String) -> String?

    /// The listening channel.
    let channel: any Channel

    /// The port the server listens on.
    var port: Int { channel.localAddress?.port ?? 0 }

    /// Starts listening on 127.0.0.1 with a random port; `greeting` is sent raw on connect if not nil.
    static func start(greeting: String?, script: @escaping Script) async throws -> ScriptedSMTPServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ScriptHandler(greeting: greeting, script: script))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return ScriptedSMTPServer(channel: channel)
    }

    /// A port on which nothing listens: bound once, then closed.
    static func unusedPort() async throws -> Int {
        let server = try await start(greeting: nil) { _ in nil }
        let port = server.port
        await server.stop()
        return port
    }

    /// Stops listening.
    func stop() async {
        try? await channel.close()
    }
}

private final class ScriptHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let greeting: String?
    private let script: ScriptedSMTPServer.Script
    private var received = ByteBuffer()

    init(greeting: String?, script: @escaping ScriptedSMTPServer.Script) {
        self.greeting = greeting
        self.script = script
    }

    func channelActive(context: ChannelHandlerContext) {
        if let greeting { context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: greeting)), promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        while let newline = received.readableBytesView.firstIndex(of: 0x0A) {
            let length = newline - received.readableBytesView.startIndex + 1
            let line = received.readString(length: length) ?? ""
            let command = line.trimmingCharacters(in: .newlines)
            if let answer = script(command) {
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)), promise: nil)
            }
        }
    }
}
