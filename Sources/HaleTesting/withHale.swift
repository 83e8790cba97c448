import Foundation
import HaleServer
import Testing
import Vapor

/// Runs `body` with a configured, migrated application on a fresh database, and tears both down after. With
/// `eventLoops`, the application runs on a group of that many event loops of its own, for tests that need to know
/// which connection pools exist; otherwise on the shared group, one loop per core.
public func withHale(
    on database: TestDatabase = .sqlite,
    clock: HaleClock = .system,
    settings: [String: String] = [:],
    eventLoops: Int? = nil,
    _ body: (Application) async throws -> Void
) async throws {
    let (url, dispose) = try await database.provision()
    do {
        try await withHale(databaseURL: url, clock: clock, settings: settings, eventLoops: eventLoops, body)
    } catch {
        await dispose()
        throw error
    }
    await dispose()
}

/// Runs `body` with a configured, migrated application on the database at `databaseURL`, which it leaves in place.
public func withHale(
    databaseURL: String,
    clock: HaleClock = .system,
    settings: [String: String] = [:],
    eventLoops: Int? = nil,
    _ body: (Application) async throws -> Void
) async throws {
    let group = eventLoops.map { MultiThreadedEventLoopGroup(numberOfThreads: $0) }
    do {
        try await withHale(
            databaseURL: databaseURL, clock: clock, settings: settings,
            application: try await Application.make(.testing, group.map { .shared($0) } ?? .singleton), body)
    } catch {
        try? await group?.shutdownGracefully()
        throw error
    }
    try? await group?.shutdownGracefully()
}

private func withHale(
    databaseURL: String, clock: HaleClock, settings: [String: String], application app: Application,
    _ body: (Application) async throws -> Void
) async throws {
    // A PostgreSQL database has no folder of its own to keep files in: the test gets one.
    var dataDirectory: URL?
    do {
        var values = ConfigValues(settings)
        values["database.url"] = databaseURL
        if values["server.dataDirectory"] == nil, !databaseURL.hasPrefix("sqlite") {
            let folder = try privateTemporaryDirectory()
            dataDirectory = folder
            values["server.dataDirectory"] = folder.path
        }
        // Under the whole parallel suite a request can wait minutes for a thread; at the default 75 s its connection
        // would be closed as idle and the client see an empty reply.
        if values["server.idleTimeout"] == nil { values["server.idleTimeout"] = testIdleTimeout }
        // PostgreSQL has no key file of its own: the test gets the tests' key.
        if values["secrets.keyEncryptionKey"] == nil, !databaseURL.hasPrefix("sqlite") {
            values["secrets.keyEncryptionKey"] = testKeyEncryptionKey
        }
        try configure(app, try HaleConfiguration(values), clock: clock)
        try await migrate(app)
        try await body(app)
    } catch {
        try? await app.asyncShutdown()
        dataDirectory.map { try? FileManager.default.removeItem(at: $0) }
        throw error
    }
    try await app.asyncShutdown()
    dataDirectory.map { try? FileManager.default.removeItem(at: $0) }
}

/// How long a test's server keeps a connection that sends and receives nothing: as long as a test's request may
/// wait (`URLSession.testing`).
public let testIdleTimeout = "20m"

/// The key-encryption key of tests on PostgreSQL, where Hale makes none of its own: 32 bytes of 0x4B, base64.
public let testKeyEncryptionKey = Data(repeating: 0x4B, count: 32).base64EncodedString()

/// An access token of a session that signed in just now, as a passkey sign-in opens one: a fresh sign-in, which
/// adding or removing a credential needs (`CredentialChanges`). A personal access token from `makeAccount` is not.
public func freshSignIn(_ app: Application, _ account: HaleServer.AccountID) async throws -> String {
    try await app.hale.sessions.start(account: account, device: nil, signInMethod: "passkey", rememberMe: false)
        .accessToken
}

/// An account and an access token of a session that signed in just now (`freshSignIn`): what a person has after
/// signing in with a passkey, ready to add or remove credentials.
public func makeSignedInAccount(_ app: Application, email: String = "person@example.com") async throws -> (
    HaleServer.Account, String
) {
    let account = try await app.hale.accounts.create(email: try AccountEmail(email), role: "user")
    return (account, try await freshSignIn(app, account.id))
}

/// An account with a personal access token, made through the services as `hale accounts create` does.
public func makeAccount(_ app: Application, email: String = "person@example.com") async throws -> (
    HaleServer.Account, String
) {
    let account = try await app.hale.accounts.create(email: try AccountEmail(email), role: "user")
    let token = try await app.hale.personalAccessTokens.create(for: account.id, name: "test")
    return (account, token.token)
}
