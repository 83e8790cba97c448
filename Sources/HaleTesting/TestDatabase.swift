import Foundation
import HaleServer
import SQLKit
import Testing
import Vapor

/// The databases a test runs on: SQLite always, PostgreSQL when `HALE_TEST_POSTGRES_URL` names a server.
public enum TestDatabase: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// An SQLite file in the temporary folder.
    case sqlite
    /// A new database on the PostgreSQL server of `HALE_TEST_POSTGRES_URL`.
    case postgres

    /// The URL of a PostgreSQL server whose user may create databases, such as
    /// `postgres://hale@127.0.0.1:5432/postgres`.
    public static var postgresAdminURL: String? {
        ProcessInfo.processInfo.environment["HALE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The databases available in this run.
    public static var available: [TestDatabase] {
        postgresAdminURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// The database's name in test output.
    public var testDescription: String { rawValue }

    /// Makes a new, empty database and returns its URL and a clean-up action.
    public func provision() async throws -> (url: String, dispose: @Sendable () async -> Void) {
        switch self {
        case .sqlite:
            // In a folder of its own, which is also the installation's data directory (`server.dataDirectory`).
            let folder = try privateTemporaryDirectory(Self.newName())
            let path = folder.appendingPathComponent("hale.sqlite").path
            return ("sqlite:\(path)", { try? FileManager.default.removeItem(at: folder) })
        case .postgres:
            guard let admin = Self.postgresAdminURL else { throw TestSetupError("HALE_TEST_POSTGRES_URL is not set") }
            let name = try await Self.createPostgresDatabase(admin)
            return (
                Self.replacingDatabase(in: admin, with: name),
                {
                    try? await Self.postgresAdmin(admin, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
                }
            )
        }
    }

    private static func newName() -> String {
        "hale_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
    }

    /// Creates a database of a new name; returns the name. While the whole suite starts, hundreds of tests share
    /// this process's two event-loop threads, and a connection's handshake can wait past the pool's ten seconds:
    /// such an attempt is tried again, under another name in case it got as far as creating one.
    private static func createPostgresDatabase(_ admin: String) async throws -> String {
        var attempt = 1
        while true {
            let name = newName()
            do {
                try await postgresAdmin(admin, "CREATE DATABASE \(name)")
                return name
            } catch  where attempt < 3 && String(describing: error).contains("connectionRequestTimeout") {
                attempt += 1
            }
        }
    }

    private static func replacingDatabase(in url: String, with name: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.path = "/\(name)"
        return components.string ?? url
    }

    /// Runs `statement` on the PostgreSQL server of `url` with an application that is configured but not
    /// migrated: for statements about databases themselves, such as creating or dropping one.
    public static func postgresAdmin(_ url: String, _ statement: String) async throws {
        let app = try await Application.make(.testing)
        do {
            var values = ConfigValues()
            values["database.url"] = url
            try configure(app, try HaleConfiguration(values))
            try await app.hale.database.sql.raw(SQLQueryString(statement)).run()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}

/// A new directory in the temporary folder that only this user may enter, as Hale's data directory must be.
public func privateTemporaryDirectory(_ name: String = "hale_data_\(UUID().uuidString.lowercased())") throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return folder
}

/// A test could not set up what it needs.
public struct TestSetupError: Error, CustomStringConvertible {
    /// What is missing.
    public let description: String
    /// Creates the error.
    public init(_ description: String) { self.description = description }
}

extension Trait where Self == ConditionTrait {
    /// For a test of a race between writers: it runs only where PostgreSQL is configured, and is reported as skipped,
    /// with this reason, where it is not. On SQLite every write queues at one gate, so such a test would pass with
    /// the lock or rule it guards removed.
    public static var racesNeedPostgreSQL: Self {
        .enabled(
            if: TestDatabase.postgresAdminURL != nil,
            "a race between writers shows only on PostgreSQL (set HALE_TEST_POSTGRES_URL): SQLite queues every write")
    }
}
