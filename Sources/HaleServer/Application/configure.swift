import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Vapor

/// Builds the application for `hale serve` and for the tests alike: database, services, middleware and routes.
///
/// It does not migrate; call `migrate(_:)` (as `hale serve` does when `database.migrateOnStart` is set).
public func configure(_ app: Application, _ configuration: HaleConfiguration, clock: HaleClock = .system) throws {
    HaleMetrics.bootstrapOnce()
    // Whatever logging the process bootstrapped, the loggers Hale hands the database drivers and the HTTP server
    // keep the libraries' sub-info lines, which carry bound values and headers, out of the log.
    app.logger = app.logger.keepingLibrariesQuiet
    app.http.server.configuration.logger = app.logger
    for warning in configuration.warnings { app.logger.warning("configuration: \(warning)") }
    app.http.server.configuration.hostname = configuration.server.host
    app.http.server.configuration.port = configuration.server.port
    app.http.server.configuration.shutdownTimeout = .milliseconds(
        Int64(configuration.server.shutdownGracePeriod.timeInterval * 1000))
    app.http.server.configuration.idleTimeout = .milliseconds(
        Int64(configuration.server.idleTimeout.timeInterval * 1000))
    // Vapor refuses a body once it holds the maximum; one byte more makes server.maxBodySize the largest accepted.
    app.routes.defaultMaxBodySize = ByteCount(value: configuration.server.maxBodySize + 1)
    try useDatabase(configuration.database.location, in: app)
    app.migrations.add(HaleMigrations.all)
    let databases = app.databases
    let eventLoops = app.eventLoopGroup
    let logger = app.logger
    @Sendable func resolve(_ id: DatabaseID?) -> any Database {
        guard let database = databases.database(id, logger: logger, on: eventLoops.any()) else {
            preconditionFailure("the databases are configured above")
        }
        return database
    }
    var writer: (@Sendable () -> any Database)?
    if databases.ids().contains(.sqliteWriter) { writer = { @Sendable in resolve(.sqliteWriter) } }
    let database = try HaleDatabase({ resolve(nil) }, writer: writer)
    app.hale = try HaleServices(
        configuration: configuration, database: database, clock: clock,
        providerHTTP: AsyncHTTPSocialClient(client: ProviderHTTPClient.make(for: app)),
        pushHTTP: try PushHTTPClients.make(for: app, configuration))

    app.middleware = Middlewares()
    app.middleware.use(
        ClientAddressMiddleware(
            proxies: configuration.server.trustedProxies, untrustedProxyWarning: UntrustedProxyWarning()))
    app.middleware.use(SecurityHeadersMiddleware(strictTransportSecurity: configuration.server.isPublicHTTPS))
    app.middleware.use(RequestIDMiddleware())
    app.middleware.use(RequestTracingMiddleware())
    app.middleware.use(RequestLogMiddleware(level: .info))
    var renderers = ErrorRenderers()
    renderers.register(JSONAPIErrorRenderer(), for: SocialSignInRoutes.path)
    renderers.register(NestErrorRenderer(), for: HealthRoutes.path)
    renderers.register(PostgRESTErrorRenderer(), for: SupabaseRoutes.path)
    renderers.register(DailySyncErrorRenderer(), for: DailySyncErrorRenderer.path)
    app.middleware.use(HaleErrorMiddleware(renderers: renderers))
    app.middleware.use(BodyLimitMiddleware())
    try registerRoutes(app, app.hale)
    app.lifecycle.use(ChallengePurgeService.job())
    app.lifecycle.use(AuditHeadLogService.job())
    app.lifecycle.use(SignInFailurePurgeService.job())
    app.lifecycle.use(PersonalAccessTokenUseService.job())
    app.lifecycle.use(HealthRetentionService.job())
    if configuration.health.importsWorker { app.lifecycle.use(HealthImportService.job()) }
    app.lifecycle.use(AppleRevocationService.job())
    app.lifecycle.use(PushDeliveryService.job(every: configuration.push.deliveryInterval))
    app.lifecycle.use(MailDeliveryService.job(every: configuration.push.deliveryInterval))
    app.lifecycle.use(ConfirmationWebhookService.job(every: configuration.push.deliveryInterval))
    app.lifecycle.use(WebhookDeliveryService.job(every: configuration.webhooks.deliveryInterval))
    if app.hale.developmentAttestation != nil { app.lifecycle.use(DevelopmentAttestationStartup()) }
}

/// Creates and migrates the database to the latest schema.
public func migrate(_ app: Application) async throws {
    if case .sqlite = app.hale.configuration.database.location {
        // Write-ahead logging lets readers proceed while one connection writes; the setting persists in the file.
        try await app.hale.database.sql.raw("PRAGMA journal_mode=WAL").run()
    }
    try await app.autoMigrate()
}

private func useDatabase(_ location: DatabaseLocation, in app: Application) throws {
    switch location {
    case .sqlite(let path):
        // SQLite does its I/O on the application's thread pool, by default the process-wide one with a thread per
        // core, where a connection waiting for the write lock spins. Hale's writes queue at its write gate instead,
        // so only another process's writer can make one spin; a pool of its own, larger than the number of
        // connections, still always leaves the lock's holder a thread to finish on.
        app.threadPool = NIOThreadPool(numberOfThreads: 2 * System.coreCount + 2)
        // The driver keeps one connection per event loop. Writes get connections of their own: a write transaction
        // holds its connection for its whole length, and in write-ahead-log mode readers never wait for the writer,
        // unless they wait for its connection.
        // No SQL log: SQLite's driver logs bound values, and some are secrets.
        app.databases.use(.sqlite(.file(path), sqlLogLevel: nil), as: .sqlite)
        app.databases.use(.sqlite(.file(path), sqlLogLevel: nil), as: .sqliteWriter, isDefault: false)
    case .postgres(let url):
        let configuration = try SQLPostgresConfiguration(url: url)
        // The driver cannot turn its statement log off, as SQLite's can: it logs each statement with its bound
        // values, some of them secrets, at the level given here. At `trace`, and from a library, HaleLogHandler
        // drops it.
        app.databases.use(
            .postgres(configuration: configuration, maxConnectionsPerEventLoop: 4, sqlLogLevel: .trace), as: .psql)
    }
}

extension DatabaseID {
    /// The SQLite connections writes use, apart from the reads' connections.
    static let sqliteWriter = DatabaseID(string: "sqlite-writer")
}
