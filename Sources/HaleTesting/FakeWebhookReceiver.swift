import Foundation
import Synchronization
import Vapor

/// An app backend's webhook endpoint on loopback, for tests: it records every POST to `/hooks` and answers the
/// statuses a test scripts, 200 once the script runs out.
public final class FakeWebhookReceiver: Sendable {
    /// One request received.
    public struct Received: Sendable {
        /// Its headers.
        public let headers: HTTPHeaders
        /// Its raw body.
        public let body: [UInt8]
    }

    /// `http://127.0.0.1:<port>/hooks`.
    public let url: String
    private let app: Application
    private let state = Mutex<(received: [Received], script: [UInt])>(([], []))

    /// Starts a receiver on a free loopback port.
    public static func start() async throws -> FakeWebhookReceiver {
        try await startOnFreeLoopbackPort { port in
            let receiver = FakeWebhookReceiver(port: port, app: try await Application.make(.testing))
            try await receiver.app.startOrShutDown(port: port)
            return receiver
        }
    }

    private init(port: Int, app: Application) {
        url = "http://127.0.0.1:\(port)/hooks"
        self.app = app
        app.logger.logLevel = .error
        app.on(.POST, "hooks", body: .collect(maxSize: "1mb")) { [self] request -> Response in
            let body = request.body.data.map { Array($0.readableBytesView) } ?? []
            let status = self.state.withLock { state -> UInt in
                state.received.append(Received(headers: request.headers, body: body))
                return state.script.isEmpty ? 200 : state.script.removeFirst()
            }
            return Response(status: HTTPResponseStatus(statusCode: Int(status)))
        }
    }

    /// The statuses the next requests get, in order.
    public func answer(_ statuses: [UInt]) {
        state.withLock { $0.script = statuses }
    }

    /// Every request so far.
    public var received: [Received] { state.withLock { $0.received } }

    /// Stops the receiver.
    public func stop() async {
        await app.server.shutdown()
        try? await app.asyncShutdown()
    }
}
