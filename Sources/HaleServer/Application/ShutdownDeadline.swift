import Dispatch
import Foundation
import Logging

/// The last resort that bounds how long `hale serve` takes to stop. On SIGTERM or SIGINT Vapor finishes the requests
/// in flight, closing their connections after `server.shutdownGracePeriod`, then stops the background services; this
/// watches the same signals and, should anything still hold the process `margin` after that, abandons it and exits.
/// A transaction abandoned that way is rolled back by the database, as when the process is killed.
public final class ShutdownDeadline {
    private let sources: [any DispatchSourceSignal]

    /// How long after the grace period the process is made to exit.
    public static let margin = Duration.seconds(5)

    /// Starts watching for SIGTERM and SIGINT.
    public init(grace: Duration, logger: Logger) {
        let queue = DispatchQueue(label: "hale.shutdown-deadline")
        sources = [SIGTERM, SIGINT].map { signal in
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler {
                logger.notice(
                    "stopping: finishing requests in flight",
                    metadata: ["gracePeriodSeconds": "\(grace.components.seconds)"])
                queue.asyncAfter(deadline: .now() + (grace + Self.margin).timeInterval) {
                    // Log lines go to standard error, which is unbuffered: nothing is lost by not flushing.
                    logger.warning("stopping: still not stopped after the grace period; abandoning what is left")
                    _exit(0)
                }
            }
            source.resume()
            return source
        }
    }

    /// Stops watching, once the server has stopped on its own.
    public func cancel() {
        for source in sources { source.cancel() }
    }
}
