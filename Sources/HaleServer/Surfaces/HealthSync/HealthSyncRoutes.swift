import Vapor

/// Sample sync: seed 004's API designed under `/api/v1/health`, and seed 000's daily sync at
/// `/api/mobile/health/sync`.
struct HealthSyncRoutes: RouteCollection {
    let healthSync: HealthSync
    let healthConnections: HealthConnections
    let health: HealthData
    let bearerTokens: BearerTokenVerifier

    func boot(routes: any RoutesBuilder) throws {
        let v1 = SignedInRoutes(
            routes.grouped("api", "v1", "health"), authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        v1.on(.POST, "sync", limit: .sync, use: sync)
        v1.get("sync-logs", use: logs)
        // Seed 000's app sends its Firebase ID token here.
        let mobile = SignedInRoutes(
            routes.grouped("api", "mobile", "health"),
            authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens, firebase: true))
        mobile.on(.POST, "sync", limit: .small, use: dailySync)
    }

    func sync(_ request: Request, _ account: AuthenticatedAccount) async throws -> SyncResponse {
        let (account, proof) = try await attest(request, account)
        let body = try request.decodeStrict(SyncRequest.self)
        try await healthConnections.requireNotDisconnected(
            body.provider.flatMap(HealthProvider.init(parsing:)), account: account)
        let zone = try await zone(of: request, account: account)
        // Read after the disconnection and the zone, so that a client with several faults hears of them in the order
        // it did when the sync read these names.
        let batch = try body.batch()
        let result = try await healthSync.sync(batch, account: account, zone: zone, proof: proof)
        return SyncResponse(result)
    }

    func logs(_ request: Request, _ account: AuthenticatedAccount) async throws -> SyncLogsResponse {
        let limit = try request.query.get(Int?.self, at: "limit")
        let status = try request.query.get(String?.self, at: "status").map {
            try InvalidInput.parse($0, as: HealthSyncLog.Status.self, field: "status")
        }
        let logs = try await healthSync.logs(of: account.accountId, limit: limit, status: status)
        return SyncLogsResponse(syncLogs: logs.map(SyncLogResponse.init))
    }

    func dailySync(_ request: Request, _ account: AuthenticatedAccount) async throws -> DailySyncResponse {
        let (account, proof) = try await attest(request, account)
        let body = try request.decodeStrict(DailySyncRequest.self)
        guard let data = body.data?.value else { throw InvalidInput("data", .required) }
        let zone = try await zone(of: request, account: account)
        let platform = try body.healthPlatform()
        try data.requireATotal()
        let (day, offset) = try data.day(in: zone)
        let result = try await healthSync.syncDailyTotals(
            platform: platform, steps: data.steps, distance: data.distance, day: day, offset: offset,
            account: account, zone: zone, proof: proof)
        return DailySyncResponse(date: day.description, syncLog: SyncLogResponse(result.log))
    }

    /// The account, and what proved the request when it was attested, once its attestation is checked: whenever it
    /// sends one, and required when the server requires one (`health.requireAttestation: all`). Before its body is
    /// read, so an unattested client costs no decoding.
    private func attest(_ request: Request, _ identity: AuthenticatedAccount) async throws
        -> (AccountID, HealthWriteProof?)
    {
        let proof = try await health.attest(
            try request.attestationHeaders(), bodyDigest: Array(request.bodyDigest), account: identity.accountId,
            device: identity.deviceId, logger: request.logger)
        return (identity.accountId, proof)
    }

    /// The request's `X-Timezone`, else the account's zone, else UTC: the rule of seed 001.
    private func zone(of request: Request, account: AccountID) async throws -> TimeZone {
        try await health.timeZone(of: account, sent: try request.timeZoneHeader())
    }
}
