import Logging

/// The log handler every Hale logger writes through: Hale's own lines at any level, other libraries' only at
/// `info` and above.
///
/// Below `info`, libraries log what passes through them: PostgreSQL's driver every statement's bound values and the
/// server's messages (a signing key's PEM, token hashes), Vapor's HTTP server each request's headers (bearer
/// tokens), the HTTP client its requests to APNs, FCM and the identity providers. Hale's own lines name what
/// happened and never hold a token, a key or a health value, at any level; so `logging.level: trace` is safe, and
/// shows Hale's detail without the libraries'.
public struct HaleLogHandler: LogHandler {
    /// The modules whose lines pass at every level.
    public static let ownModules: Set<String> = [
        "HaleServer", "hale", "HaleClient", "HealthSamples", "StrictJSON", "SocialTokens", "WebAuthn", "DeviceKeys",
        "DeviceIntegrity", "CBOR",
    ]

    /// The handler lines are written to.
    public var base: any LogHandler

    /// Writes through `base`.
    public init(_ base: any LogHandler) {
        self.base = base
    }

    /// `base`'s level.
    public var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    /// `base`'s metadata.
    public var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    /// `base`'s metadata provider.
    public var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    /// One of `base`'s metadata values.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    /// Writes the line unless it is a library's, below `info`.
    public func log(event: LogEvent) {
        guard event.level >= .info || Self.ownModules.contains(event.source) else { return }
        base.log(event: event)
    }
}

extension Logger {
    /// This logger, its lines written through `HaleLogHandler`.
    public var keepingLibrariesQuiet: Logger {
        guard !(handler is HaleLogHandler) else { return self }
        var logger = self
        logger.handler = HaleLogHandler(handler)
        return logger
    }
}
