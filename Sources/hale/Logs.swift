import HaleServer
import Logging
import Synchronization

/// Logging is bootstrapped once per process.
enum Logs {
    private static let done = Mutex(false)

    static func bootstrap(level: Logger.Level) {
        done.withLock { done in
            guard !done else { return }
            LoggingSystem.bootstrap { label in
                var handler = HaleLogHandler(StreamLogHandler.standardError(label: label))
                handler.logLevel = level
                return handler
            }
            done = true
        }
    }
}
