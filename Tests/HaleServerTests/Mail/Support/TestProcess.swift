import Foundation

/// Runs helper programs (python, openssl) for the tests.
enum TestProcess {
    /// The outcome of a finished program.
    struct Result: Sendable {
        /// The exit status.
        var status: Int32
        /// Everything written to stdout.
        var output: Data
    }

    /// Runs `arguments[0]` found on PATH with the remaining arguments and waits for it; stderr is discarded.
    @discardableResult
    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Read before waiting, so a chatty program cannot block on a full pipe.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: data)
    }

    /// Whether `arguments` runs and exits with status 0.
    static func succeeds(_ arguments: [String]) -> Bool {
        (try? run(arguments).status) == 0
    }

    /// A new empty directory under the system's temporary directory.
    static func makeTemporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
