import Foundation
import HaleServer
import HaleTesting
import Testing

/// `hale serve` as a separate process, driven over real HTTP.
@Suite("hale serve, as a process", .serialized)
struct ServeProcessTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func aFreshSQLiteServerServesAccountsAndKeepsItsKeyAcrossRestarts() async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await TestDatabase.sqlite.provision()
        defer { Task { await dispose() } }
        let environment = ["HALE_DATABASE_URL": url]

        let created = try await hale.run(
            ["accounts", "create", "--email", "ops@example.com"], environment: environment)
        #expect(created.status == 0)
        let output = try JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: String]
        let token = try #require(output?["token"])
        #expect(output?["accountId"] != nil)

        let first = try await hale.serve(environment: environment)
        let account = try await first.request("GET", "api/v1/account", bearer: token)
        #expect(account.status == 200)
        let keysBefore = try Self.keyIDs(try await first.request("GET", ".well-known/jwks.json").body)
        await first.stop()

        let second = try await hale.serve(environment: environment)
        defer { second.stop() }
        let keysAfter = try Self.keyIDs(try await second.request("GET", ".well-known/jwks.json").body)
        #expect(keysBefore.count == 2, "the access-token key and the provenance key")
        #expect(keysAfter == keysBefore)
        let duplicate = try await hale.run(
            ["accounts", "create", "--email", "ops@example.com"], environment: environment)
        #expect(duplicate.status != 0)
    }

    /// A client that sends headers and part of a body, then nothing, keeps its request in flight for ever: SIGTERM
    /// still stops the server once `server.shutdownGracePeriod` has passed.
    @Test func sigtermStopsWithinTheGracePeriodWhateverAClientIsDoing() async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await TestDatabase.sqlite.provision()
        defer { Task { await dispose() } }
        let server = try await hale.serve(
            environment: [
                "HALE_DATABASE_URL": url, "HALE_SERVER_SHUTDOWN_GRACE_PERIOD": "1s", "HALE_SERVER_SHUTDOWN_GRACE": "2s",
            ])
        let port = try #require(server.baseURL.port)
        let socket = try LoopbackSocket(port: port)
        defer { socket.close() }
        try socket.send(
            "POST /api/v1/health/sync HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 100000\r\n\r\n{\"provider\":")
        try await Task.sleep(for: .milliseconds(300))
        let started = ContinuousClock.now
        await server.stop()
        let took = ContinuousClock.now - started
        #expect(
            took < .seconds(4), "took \(took): Vapor should close the stalled connection after the 1 s grace period")
        let log = try String(contentsOf: server.log, encoding: .utf8)
        #expect(log.contains("stopping: finishing requests in flight"))
        #expect(
            log.contains(
                "configuration: HALE_SERVER_SHUTDOWN_GRACE is not a configuration variable; it is ignored. Did you mean HALE_SERVER_SHUTDOWN_GRACE_PERIOD"
            ), "a typo in the environment is a warning at start")
    }

    static func keyIDs(_ jwks: Data) throws -> [String] {
        let keys = (try JSONSerialization.jsonObject(with: jwks) as? [String: Any])?["keys"] as? [[String: Any]]
        return (keys ?? []).compactMap { $0["kid"] as? String }
    }

    /// Two instances on one PostgreSQL database: a handoff code issued by one is redeemed exactly once across both.
    /// The session is started in this process on the same database, so its access token is signed with the key the
    /// servers share.
    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil, "needs HALE_TEST_POSTGRES_URL"))
    func twoInstancesConsumeAChallengeExactlyOnce() async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await TestDatabase.postgres.provision()
        defer { Task { await dispose() } }
        let environment = ["HALE_DATABASE_URL": url]
        #expect(try await hale.run(["migrate"], environment: environment).status == 0)
        var token = ""
        try await withHale(databaseURL: url) { app in
            let (account, _) = try await makeAccount(app, email: "two@example.com")
            token = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false
            ).accessToken
        }

        let first = try await hale.serve(environment: environment)
        let second = try await hale.serve(environment: environment)
        defer {
            first.stop()
            second.stop()
        }
        let issued = try await first.request("POST", "api/v1/auth/handoff", bearer: token)
        #expect(issued.status == 201)
        let code = try #require(
            (try JSONSerialization.jsonObject(with: issued.body) as? [String: Any])?["code"] as? String)

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for attempt in 0..<20 {
                let server = attempt.isMultiple(of: 2) ? first : second
                group.addTask {
                    try await server.request("POST", "api/v1/auth/handoff/redeem", json: #"{"code":"\#(code)"}"#).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 1)
        #expect(statuses.filter { $0 == 400 }.count == 19)
    }

    /// `hale serve` refuses to start, and says why, rather than keep uploads or its key where others may reach them.
    @Test func aDataDirectoryOthersMayWriteStopsServe() async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await TestDatabase.sqlite.provision()
        defer { Task { await dispose() } }
        let shared = try privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: shared) }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: shared.path)
        do {
            let server = try await hale.serve(
                environment: ["HALE_DATABASE_URL": url, "HALE_SERVER_DATA_DIRECTORY": shared.path])
            await server.stop()
            Issue.record("hale serve started with a data directory anyone may write")
        } catch let error as TestSetupError {
            #expect(error.description.contains("may be written by other users (mode 777)"), "\(error)")
        }
    }

    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil, "needs HALE_TEST_POSTGRES_URL"))
    func postgreSQLWithoutAKeyEncryptionKeyStopsServe() async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await TestDatabase.postgres.provision()
        defer { Task { await dispose() } }
        let folder = try privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // An empty key is no key: the tests' own is not added.
        let environment = [
            "HALE_DATABASE_URL": url, "HALE_SECRETS_KEY_ENCRYPTION_KEY": "", "HALE_SERVER_DATA_DIRECTORY": folder.path,
        ]
        do {
            let server = try await hale.serve(environment: environment)
            await server.stop()
            Issue.record("hale serve started on PostgreSQL without a key-encryption key")
        } catch let error as TestSetupError {
            #expect(error.description.contains("secrets.keyEncryptionKey is required with PostgreSQL"), "\(error)")
        }
    }
}
