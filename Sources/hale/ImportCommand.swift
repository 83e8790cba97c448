import ArgumentParser
import Foundation
import HaleServer

/// `hale import …`: history brought in from elsewhere.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import health history into an account.", subcommands: [AppleHealth.self])

    /// `hale import apple-health FILE --account ID | --email E`.
    struct AppleHealth: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apple-health",
            abstract: """
                Import the Health app's "Export All Health Data" archive (export.zip, or its export.xml) as HealthKit \
                samples, as a sync would: consent, plausibility, the sample window and source priority apply. The \
                file is checked whole before anything is stored; importing it again stores nothing twice. Progress \
                goes to standard error, the summary as JSON to standard output.
                """)

        @OptionGroup var options: GlobalOptions
        @OptionGroup var selection: AccountSelection
        @Argument(help: "export.zip or export.xml.") var file: String
        @Option(help: "The IANA time zone for records without an offset (default: the account's, else UTC).")
        var timeZone: String?

        func run() async throws {
            let url = URL(fileURLWithPath: file)
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw ValidationError("Cannot read \(file).")
            }
            let sent: TimeZone? = try timeZone.map { name in
                guard let zone = HealthData.ianaZone(name) else {
                    throw ValidationError("--time-zone must be an IANA time zone such as Europe/Berlin")
                }
                return zone
            }
            let reporter = ImportProgress(terminal: isatty(STDERR_FILENO) == 1)
            let summary = try await options.withServices { services in
                let account = try await selection.accountID(using: services)
                let zone = try await services.health.timeZone(of: account, sent: sent)
                return try await services.appleHealthImport.run(
                    url, account: account, zone: zone, progress: { reporter.report($0) })
            }
            reporter.finish()
            print(try CommandOutput.json(summary))
        }
    }
}

/// The import's progress on standard error: a bar redrawn in place on a terminal (records read, records per second,
/// the share of the file, the time left), a plain line every few seconds otherwise.
final class ImportProgress: @unchecked Sendable {
    private let terminal: Bool
    private let lock = NSLock()
    private let started = Date()
    private var phaseStarted = Date()
    private var phase = ""
    private var lastLine = Date.distantPast

    init(terminal: Bool) {
        self.terminal = terminal
    }

    func report(_ progress: AppleHealthImport.Progress) {
        lock.withLock {
            let now = Date()
            if progress.phase != phase {
                if terminal, !phase.isEmpty { FileHandle.standardError.write(Data("\n".utf8)) }
                phase = progress.phase
                phaseStarted = now
            }
            guard terminal || now.timeIntervalSince(lastLine) >= 5 || progress.fraction >= 1 else { return }
            lastLine = now
            let line = Self.line(progress, elapsed: now.timeIntervalSince(phaseStarted), width: terminal ? 30 : 0)
            FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
        }
    }

    func finish() {
        lock.withLock {
            let total = Int(Date().timeIntervalSince(started).rounded())
            FileHandle.standardError.write(Data(((terminal ? "\n" : "") + "done in \(total) s\n").utf8))
        }
    }

    /// `checking  [#########.....]  45% · 123,456 records · 12,345 records/s · 1m 02s left`.
    static func line(_ progress: AppleHealthImport.Progress, elapsed: TimeInterval, width: Int) -> String {
        let fraction = min(1, max(0, progress.fraction))
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar =
            width > 0
            ? "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] " : ""
        let rate = elapsed > 0 ? Double(progress.recordsRead) / elapsed : 0
        let left = fraction > 0 && fraction < 1 ? elapsed * (1 - fraction) / fraction : 0
        let percent = Int((fraction * 100).rounded(.down))
        return "\(progress.phase.padding(toLength: 9, withPad: " ", startingAt: 0)) \(bar)\(percent)% · "
            + "\(progress.recordsRead) records · \(Int(rate.rounded())) records/s · \(duration(left)) left"
    }

    private static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded(.up))
        return whole >= 60 ? "\(whole / 60)m \(String(format: "%02d", whole % 60))s" : "\(whole)s"
    }
}
