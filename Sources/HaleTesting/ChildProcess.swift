import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process of a test, its standard input `/dev/null` and its output going to descriptors the test chose.
///
/// On Linux it is started with `posix_spawn`, not Foundation's `Process`: in Swift 6.3.1, `Process.run()` reads
/// `/proc/self/fd` with a 256-byte copy of each short directory entry and now and then reads past a mapped page,
/// crashing the whole test process (swift-corelibs-foundation pull request 5472). Test suites that start many
/// servers while holding many sockets hit it about one run in three.
final class ChildProcess: @unchecked Sendable {
    private let lock = NSLock()
    private var exitStatus: Int32?
    #if os(Linux)
        private let pid: pid_t
    #else
        private let process: Process
    #endif

    /// Starts `executable` with `arguments` and exactly `environment`, writing its standard output to `output` and
    /// its standard error to `errors`.
    init(executable: URL, arguments: [String], environment: [String: String], output: Int32, errors: Int32) throws {
        #if os(Linux)
            pid = try Self.spawn(
                executable.path, arguments: arguments, environment: environment.map { "\($0.key)=\($0.value)" },
                output: output, errors: errors)
        #else
            process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle(fileDescriptor: output, closeOnDealloc: false)
            process.standardError = FileHandle(fileDescriptor: errors, closeOnDealloc: false)
            try process.run()
        #endif
    }

    /// Whether it has not exited yet.
    var isRunning: Bool {
        lock.withLock {
            guard exitStatus == nil else { return false }
            #if os(Linux)
                var status: Int32 = 0
                guard waitpid(pid, &status, WNOHANG) == pid else { return true }
                exitStatus = Self.exitCode(status)
                return false
            #else
                guard !process.isRunning else { return true }
                exitStatus = process.terminationStatus
                return false
            #endif
        }
    }

    /// Sends SIGTERM.
    func terminate() {
        send(SIGTERM)
    }

    /// Sends `signal`, such as SIGKILL, which no process can catch.
    func send(_ signal: Int32) {
        guard isRunning else { return }
        #if os(Linux)
            kill(pid, signal)
        #else
            kill(process.processIdentifier, signal)
        #endif
    }

    /// Waits for it to exit; returns its exit status, or 128 plus the signal that ended it.
    ///
    /// It blocks outside the lock, so that `terminate()` from another thread is never held up behind it.
    @discardableResult
    func waitUntilExit() -> Int32 {
        if let exitStatus = lock.withLock({ exitStatus }) { return exitStatus }
        #if os(Linux)
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
            return lock.withLock {
                // Otherwise `isRunning` reaped it first, under the lock, and recorded its status.
                if reaped == pid { exitStatus = Self.exitCode(status) }
                return exitStatus ?? -1
            }
        #else
            process.waitUntilExit()
            return lock.withLock {
                exitStatus = process.terminationStatus
                return process.terminationStatus
            }
        #endif
    }

    #if os(Linux)
        private static func spawn(
            _ path: String, arguments: [String], environment: [String], output: Int32, errors: Int32
        ) throws -> pid_t {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, output, 1)
            posix_spawn_file_actions_adddup2(&actions, errors, 2)
            // The child inherits none of the test process's sockets, files and pipes: an inherited pipe would keep
            // another test's `run` from ever reading to the end.
            guard let closeFrom = Self.addCloseFrom, closeFrom(&actions, 3) == 0 else {
                throw TestSetupError("posix_spawn_file_actions_addclosefrom_np needs glibc 2.34 or later")
            }
            let argv = ([path] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup($0) } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid: pid_t = 0
            let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
            guard result == 0 else {
                throw TestSetupError("cannot start \(path): \(String(cString: strerror(result)))")
            }
            return pid
        }

        /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not
        /// declare.
        private static let addCloseFrom:
            (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
                guard
                    let symbol = dlsym(
                        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
                else {
                    return nil
                }
                return unsafeBitCast(
                    symbol,
                    to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
            }()

        /// The shell's convention: the exit code, or 128 plus the terminating signal.
        private static func exitCode(_ status: Int32) -> Int32 {
            let signal = status & 0x7F
            return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        }
    #endif
}
