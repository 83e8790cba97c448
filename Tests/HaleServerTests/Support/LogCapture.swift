import Logging
import Synchronization

/// Collects every log line, with its metadata, written through a logger it backs.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var text: String {
        lines.withLock { $0.joined(separator: "\n") }
    }

    /// A logger at `trace` level whose lines land here.
    func logger() -> Logger {
        var logger = Logger(label: "capture") { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }
}

private struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        capture.append("\(event.level) \(event.message) \(all) \(event.error.map { String(reflecting: $0) } ?? "")")
    }
}
