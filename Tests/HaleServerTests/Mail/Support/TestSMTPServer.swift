import Foundation

/// `scripts/smtp-test-server.py` running as a real process for one test.
final class TestSMTPServer: Sendable {
    /// How the server is started.
    struct Options: Sendable {
        /// Offer STARTTLS (required before MAIL) with the test certificate.
        var startTLS = false
        /// Speak TLS from the first byte with the test certificate.
        var implicitTLS = false
        /// Require AUTH with this username and password.
        var credentials: (user: String, password: String)?
        /// Offered AUTH mechanisms, e.g. "LOGIN".
        var authMechanisms = "LOGIN,PLAIN"
        /// The loopback address to listen on.
        var host = "127.0.0.1"
    }

    private struct StartFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// The port the server listens on.
    let port: Int
    /// Where received messages appear as `<n>.eml`.
    let maildir: URL
    /// Every plaintext byte the server received.
    let transcriptPath: String
    private let process: Process

    private init(process: Process, port: Int, maildir: URL, transcriptPath: String) {
        self.process = process
        self.port = port
        self.maildir = maildir
        self.transcriptPath = transcriptPath
    }

    /// Starts the server and waits until it prints its port.
    static func start(_ options: Options, certificates: TestCertificates?) async throws -> TestSMTPServer {
        let directory = try TestProcess.makeTemporaryDirectory("hale-smtp-server")
        let maildir = directory.appendingPathComponent("maildir")
        let transcriptPath = directory.appendingPathComponent("transcript").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [TestPython.executable, TestPython.serverScript, "--port", "0", "--host", options.host]
            + ["--maildir", maildir.path, "--transcript", transcriptPath]
            + tlsArguments(options, certificates: certificates) + authArguments(options)
        let output = Pipe()
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("stderr").path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("stderr"))
        try process.run()
        let firstLine = await readFirstLine(output.fileHandleForReading)
        guard firstLine.hasPrefix("PORT "), let port = Int(firstLine.dropFirst(5)) else {
            process.terminate()
            throw StartFailed(description: "test SMTP server did not start (printed \(firstLine.debugDescription))")
        }
        return TestSMTPServer(process: process, port: port, maildir: maildir, transcriptPath: transcriptPath)
    }

    /// Sends SIGTERM and returns whether the server exited with status 0 within five seconds; if it did not, it
    /// is killed.
    @discardableResult
    func stop() async -> Bool {
        process.terminate()
        for _ in 0..<100 where process.isRunning {
            try? await Task.sleep(for: .milliseconds(50))
        }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            return false
        }
        return process.terminationReason == .exit && process.terminationStatus == 0
    }

    /// Deletes the maildir, transcript and log; kept when a test fails, for a look.
    func removeFiles() {
        try? FileManager.default.removeItem(at: maildir.deletingLastPathComponent())
    }

    /// The paths of the received messages, sorted.
    func receivedMessages() throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: maildir.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") && !$0.hasPrefix(".") }.sorted()
            .map { maildir.appendingPathComponent($0).path }
    }

    /// What the client sent in plaintext (after TLS decryption, if any).
    func transcript() -> String {
        (try? String(contentsOfFile: transcriptPath, encoding: .utf8)) ?? ""
    }

    private static func tlsArguments(_ options: Options, certificates: TestCertificates?) -> [String] {
        guard options.startTLS || options.implicitTLS, let certificates else { return [] }
        let files = ["--cert", certificates.serverCertificatePath, "--key", certificates.serverKeyPath]
        return files + (options.implicitTLS ? ["--implicit-tls"] : [])
    }

    private static func authArguments(_ options: Options) -> [String] {
        guard let credentials = options.credentials else { return [] }
        return ["--user", credentials.user, "--password", credentials.password]
            + ["--auth-mechanisms", options.authMechanisms]
    }

    /// Reads up to the first newline (or EOF) on a background thread: the read blocks.
    private static func readFirstLine(_ handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while let byte = try? handle.read(upToCount: 1)?.first, byte != 0x0A {
                    bytes.append(byte)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}
