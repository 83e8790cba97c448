import Foundation

/// Where Hale's data lives: an embedded SQLite file, or a PostgreSQL server.
public enum DatabaseLocation: Sendable, Equatable {
    /// An SQLite database in the file at this path.
    case sqlite(path: String)
    /// A PostgreSQL database at this `postgres://` URL.
    case postgres(url: String)

    /// Parses `sqlite:PATH`, `sqlite://PATH`, `postgres://…` or `postgresql://…`.
    public init(url: String) throws {
        let trimmed = url.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("postgres://") || trimmed.hasPrefix("postgresql://") {
            self = .postgres(url: trimmed)
        } else if trimmed.hasPrefix("sqlite://") {
            self = try Self.sqlite(String(trimmed.dropFirst("sqlite://".count)))
        } else if trimmed.hasPrefix("sqlite:") {
            self = try Self.sqlite(String(trimmed.dropFirst("sqlite:".count)))
        } else {
            throw ConfigError("database.url must start with sqlite: or postgres://")
        }
    }

    private static func sqlite(_ path: String) throws -> DatabaseLocation {
        guard !path.isEmpty else {
            throw ConfigError("database.url names no SQLite file; write sqlite:hale.sqlite")
        }
        return .sqlite(path: path)
    }

    /// What names this database and no other, without its password: an SQLite file's absolute path, or a
    /// PostgreSQL URL's user, host, port and database.
    var identity: String {
        switch self {
        case .sqlite(let path):
            return "sqlite:" + URL(fileURLWithPath: path).standardizedFileURL.path
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres:" }
            components.password = nil
            components.query = nil
            components.fragment = nil
            return components.string ?? "postgres:"
        }
    }

    /// Whether this is PostgreSQL, where row locks and `SKIP LOCKED` exist.
    public var isPostgres: Bool {
        if case .postgres = self { return true }
        return false
    }
}
