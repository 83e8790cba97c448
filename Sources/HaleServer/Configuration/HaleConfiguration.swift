import Logging

/// Hale's typed configuration, read from `ConfigValues` with the kinds `ConfigKey.all` declares.
public struct HaleConfiguration: Sendable {
    /// Where the HTTP server listens and what it accepts.
    public struct Server: Sendable {
        /// Address to listen on.
        public var host: String
        /// Port to listen on.
        public var port: Int
        /// Largest request body accepted, in bytes, except on bulk-upload routes.
        public var maxBodySize: Int
    }

    /// The database.
    public struct Database: Sendable {
        /// Where the data lives.
        public var location: DatabaseLocation
        /// Whether `hale serve` migrates before it starts listening.
        public var migrateOnStart: Bool
    }

    /// Access tokens, refresh tokens and their signing keys.
    public struct Tokens: Sendable {
        /// The `iss` claim of access tokens.
        public var issuer: String
        /// How long an access token is valid.
        public var accessTokenLifetime: Duration
        /// How long a session lasts without `rememberMe`.
        public var refreshTokenLifetime: Duration
        /// How long a session lasts with `rememberMe`.
        public var rememberMeRefreshTokenLifetime: Duration
        /// How long after a refresh the just-spent token may be retried without revoking the session.
        public var refreshReuseGracePeriod: Duration
        /// Age at which the signing key is replaced by a new one.
        public var signingKeyRotationInterval: Duration
    }

    /// Server settings.
    public var server: Server
    /// Database settings.
    public var database: Database
    /// Token settings.
    public var tokens: Tokens
    /// The minimum level of log lines written.
    public var logLevel: Logger.Level

    /// Reads every key, applying defaults; throws a `ConfigError` naming the first bad value.
    public init(_ values: ConfigValues) throws {
        server = Server(
            host: try values.string("server.host"),
            port: try values.integer("server.port"),
            maxBodySize: try values.byteSize("server.maxBodySize"))
        database = Database(
            location: try DatabaseLocation(url: try values.string("database.url")),
            migrateOnStart: try values.boolean("database.migrateOnStart"))
        tokens = Tokens(
            issuer: try values.string("tokens.issuer"),
            accessTokenLifetime: try values.duration("tokens.accessTokenLifetime"),
            refreshTokenLifetime: try values.duration("tokens.refreshTokenLifetime"),
            rememberMeRefreshTokenLifetime: try values.duration("tokens.rememberMeRefreshTokenLifetime"),
            refreshReuseGracePeriod: try values.duration("tokens.refreshReuseGracePeriod"),
            signingKeyRotationInterval: try values.duration("tokens.signingKeyRotationInterval"))
        logLevel = try Self.logLevel(try values.string("logging.level"))
        try validate()
    }

    private func validate() throws {
        guard (1...65_535).contains(server.port) else {
            throw ConfigError("server.port must be between 1 and 65535, not \(server.port)")
        }
        guard tokens.signingKeyRotationInterval > tokens.accessTokenLifetime else {
            throw ConfigError("tokens.signingKeyRotationInterval must be longer than tokens.accessTokenLifetime")
        }
        guard tokens.refreshReuseGracePeriod <= .seconds(3600) else {
            throw ConfigError("tokens.refreshReuseGracePeriod must be at most 1h")
        }
    }

    /// `trace` is refused: at that level Vapor logs raw requests, bearer tokens included.
    private static func logLevel(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()), level != .trace else {
            throw ConfigError("logging.level must be one of debug, info, notice, warning, error, critical")
        }
        return level
    }
}
