import Foundation
import HaleServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built `hale` executable, run as a separate process the way operators run it.
public struct HaleExecutable: Sendable {
    /// The executable's path.
    public let url: URL

    /// Finds the executable: `HALE_BINARY`, or beside the test bundle, or in `.build/debug`.
    public init(packageRoot: URL) throws {
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["HALE_BINARY"] {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(testBinary.deletingLastPathComponent().appendingPathComponent("hale"))
        candidates.append(packageRoot.appendingPathComponent(".build/debug/hale"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestSetupError("cannot find the hale executable; build it or set HALE_BINARY")
        }
        url = found
    }

    /// Runs a command to completion and returns what it printed on standard output.
    ///
    /// It waits on a thread of its own: a debug build's command takes a second or more, and blocking one of the two
    /// threads that run every test's tasks would hold up requests to in-process servers for as long.
    public func run(_ arguments: [String], environment: [String: String]) async throws
        -> (status: Int32, output: String)
    {
        let environment = Self.withKeyEncryptionKey(environment)
        return try await ThreadWork { Result { try runBlocking(arguments, environment: environment) } }.value.get()
    }

    /// A PostgreSQL database has no key file of its own: unless the test names a key-encryption key, it gets the
    /// tests' key (`testKeyEncryptionKey`), and a data directory of its own.
    static func withKeyEncryptionKey(_ environment: [String: String]) -> [String: String] {
        guard let url = environment["HALE_DATABASE_URL"], url.hasPrefix("postgres") else { return environment }
        var environment = environment
        if environment["HALE_SECRETS_KEY_ENCRYPTION_KEY"] == nil,
            environment["HALE_SECRETS_KEY_ENCRYPTION_KEY_FILE"] == nil
        {
            environment["HALE_SECRETS_KEY_ENCRYPTION_KEY"] = testKeyEncryptionKey
        }
        if environment["HALE_SERVER_DATA_DIRECTORY"] == nil {
            // One folder per database, so that every process on it sees the same files.
            let name = "hale_data_" + String(url.split(separator: "/").last ?? "postgres")
            environment["HALE_SERVER_DATA_DIRECTORY"] =
                FileManager.default.temporaryDirectory
                .appendingPathComponent(name).path
        }
        return environment
    }

    private func runBlocking(_ arguments: [String], environment: [String: String]) throws
        -> (status: Int32, output: String)
    {
        let output = Pipe()
        let discarded = FileHandle.nullDevice
        let process = try ChildProcess(
            executable: url, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            output: output.fileHandleForWriting.fileDescriptor, errors: discarded.fileDescriptor)
        try output.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        return (process.waitUntilExit(), String(decoding: data, as: UTF8.self))
    }

    /// Starts `hale serve` on a free loopback port and waits until it answers `/readyz`.
    public func serve(environment: [String: String]) async throws -> RunningHale {
        let port = try freeLoopbackPort()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("hale-serve-\(port).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = try ChildProcess(
            executable: url, arguments: ["serve"],
            environment: ProcessInfo.processInfo.environment.merging(Self.withKeyEncryptionKey(environment)) { $1 }
                .merging(["HALE_SERVER_PORT": "\(port)", "HALE_SERVER_HOST": "127.0.0.1"]) { $1 }
                .merging(["HALE_SERVER_IDLE_TIMEOUT": testIdleTimeout]) { given, _ in given },
            output: handle.fileDescriptor, errors: handle.fileDescriptor)
        let server = RunningHale(process: process, baseURL: URL(string: "http://127.0.0.1:\(port)")!, log: log)
        try await server.waitUntilReady()
        return server
    }
}

/// A `hale serve` process started by a test.
public final class RunningHale: Sendable {
    /// Where it listens.
    public let baseURL: URL
    /// Its log file.
    public let log: URL
    private let process: ChildProcess

    init(process: ChildProcess, baseURL: URL, log: URL) {
        self.process = process
        self.baseURL = baseURL
        self.log = log
    }

    /// Sends a request and returns the status and body.
    public func request(_ method: String, _ path: String, bearer: String? = nil, json: String? = nil) async throws
        -> (status: Int, body: Data)
    {
        // Split off a query, which `appendingPathComponent` would percent-encode into the path.
        let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
        var components = URLComponents(url: baseURL.appendingPathComponent(parts[0]), resolvingAgainstBaseURL: false)
        components?.percentEncodedQuery = parts.count == 2 ? parts[1] : nil
        guard let url = components?.url else { throw TestSetupError("not a path: \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = URLSession.testingTimeout
        if let bearer {
            request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        let (data, response) = try await URLSession.testing.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Kills it with SIGKILL, as a crash or an out-of-memory killer would, and waits until it is gone.
    public func kill() async {
        process.send(SIGKILL)
        _ = await ThreadWork { self.process.waitUntilExit() }.value
    }

    /// Sends SIGTERM and waits for a graceful exit, on a thread of its own.
    public func stop() async {
        guard process.isRunning else { return }
        process.terminate()
        _ = await ThreadWork { self.process.waitUntilExit() }.value
    }

    /// Sends SIGTERM and waits for a graceful exit, blocking the caller: for `defer` and `deinit`, which cannot
    /// wait otherwise.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    func waitUntilReady() async throws {
        for _ in 0..<600 {
            guard process.isRunning else { break }
            if let (status, _) = try? await request("GET", "readyz"), status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        await stop()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw TestSetupError("hale serve did not become ready:\n\(text)")
    }

    deinit {
        stop()
    }
}
