import Foundation

/// Seeds 000 and 004: consent, connections, sample sync with deduplication, sync logs, and the account's data.
extension HaleClient {
    /// Grants `permissions` (sample types such as `steps` and `distance`) on `platform` (`apple`, `google` or
    /// `health_connect`); returns the grants in force.
    @discardableResult
    public func grantHealthConsent(platform: String, permissions: [String]) async throws -> [ConsentGrant] {
        let answer: ConsentAnswer = try await send(
            "POST", "api/v1/health/consent", json: ConsentBody(platform: platform, permissions: permissions),
            as: .session)
        return answer.consent
    }

    /// The grants in force.
    public func healthConsent() async throws -> [ConsentGrant] {
        let answer: ConsentAnswer = try await send("GET", "api/v1/health/consent", as: .session)
        return answer.consent
    }

    /// What a revocation of consent covers.
    public enum ConsentScope: Sendable, Hashable {
        /// Every permission on every platform.
        case all
        /// Every permission on a platform: `apple`, `google` or `health_connect`.
        case platform(String)
        /// One permission, such as `steps`, on a platform.
        case permission(String, platform: String)

        var path: String {
            switch self {
            case .all: "api/v1/health/consent"
            case .platform(let platform): "api/v1/health/consent/\(platform)"
            case .permission(let permission, let platform): "api/v1/health/consent/\(platform)/\(permission)"
            }
        }
    }

    /// Revokes consent within `scope`; returns the grants it ended.
    @discardableResult
    public func revokeHealthConsent(_ scope: ConsentScope) async throws -> [ConsentGrant] {
        let answer: RevocationAnswer = try await send("DELETE", scope.path, json: nil, as: .session)
        return answer.revoked
    }

    /// Connects a provider (`healthkit`, `health_connect` or `googlefit`) with `permissions` (sample types), which
    /// grants consent to them too.
    @discardableResult
    public func connectHealth(provider: String, permissions: [String]) async throws -> HealthConnection {
        let answer: ConnectionAnswer = try await send(
            "POST", "api/v1/health/connections", json: ConnectBody(provider: provider, permissions: permissions),
            as: .session)
        return answer.connection
    }

    /// The account's connections.
    public func healthConnections() async throws -> [HealthConnection] {
        let answer: ConnectionsAnswer = try await send("GET", "api/v1/health/connections", as: .session)
        return answer.connections
    }

    /// Disconnects a provider.
    public func disconnectHealth(provider: String) async throws {
        _ = try await send("DELETE", "api/v1/health/connections/\(provider)", json: nil, as: .session)
    }

    /// Sends samples added or changed and the ids of samples deleted since the last sync. A `batchId` makes the
    /// sync safe to send again: a repeat answers the first result without storing anything twice. `syncType` is
    /// `initial`, `manual` or `background`, which set how many days back `lookbackDays` defaults to. With
    /// `attestation`, the samples are stored as attested: verified challenges count them, and provenance statements
    /// name them. A server that requires every write attested (`health.requireAttestation: all`) needs it.
    public func sync(
        provider: String, samples: [HealthSyncSample], deletions: [String] = [], batchId: String? = nil,
        syncType: String? = nil, lookbackDays: Int? = nil, attestation: HealthWriteAttestation? = nil
    ) async throws -> HealthSyncResult {
        try await sendHealthWrite(
            "api/v1/health/sync",
            body: SyncBody(
                provider: provider, syncType: syncType, lookbackDays: lookbackDays, batchId: batchId,
                samples: samples, deletions: deletions), attestation: attestation)
    }

    /// Sends what an anchored HealthKit query found, as one background sync from `healthkit`.
    public func sync(
        _ changes: HealthKitChanges, batchId: String? = nil, attestation: HealthWriteAttestation? = nil
    ) async throws -> HealthSyncResult {
        try await sync(
            provider: "healthkit", samples: changes.samples, deletions: changes.deletedIDs, batchId: batchId,
            syncType: "background", attestation: attestation)
    }

    /// Seed 000's daily sync: one day's (`YYYY-MM-DD`) steps and distance from `platform` (`apple` or `google`).
    public func syncDaily(
        platform: String, date: String, steps: Double, distance: Double? = nil,
        attestation: HealthWriteAttestation? = nil
    ) async throws -> HealthSyncLog {
        let answer: DailySyncAnswer = try await sendHealthWrite(
            "api/mobile/health/sync",
            body: DailySyncBody(platform: platform, data: .init(steps: steps, distance: distance, date: date)),
            attestation: attestation)
        return answer.syncLog
    }

    /// The latest sync logs, newest first.
    public func syncLogs(limit: Int? = nil) async throws -> [HealthSyncLog] {
        let answer: SyncLogsAnswer = try await send(
            "GET", "api/v1/health/sync-logs", query: limit.map { [URLQueryItem(name: "limit", value: "\($0)")] } ?? [],
            as: .session)
        return answer.syncLogs
    }

    /// Everything Hale holds about the account's health, as the JSON document the person may download and keep.
    public func exportHealthData() async throws -> Data {
        try await send("GET", "api/v1/health/export", json: nil, as: .session)
    }

    /// Deletes every health record of the account.
    public func deleteAllHealthData() async throws {
        _ = try await send("DELETE", "api/v1/health/data", json: nil, as: .session)
    }

    private struct ConsentBody: Encodable, Sendable {
        let platform: String
        let permissions: [String]
    }

    private struct ConnectBody: Encodable, Sendable {
        let provider: String
        let permissions: [String]
    }

    private struct SyncBody: Encodable, Sendable {
        let provider: String
        let syncType: String?
        let lookbackDays: Int?
        let batchId: String?
        let samples: [HealthSyncSample]
        let deletions: [String]
    }

    private struct DailySyncBody: Encodable, Sendable {
        struct Totals: Encodable, Sendable {
            let steps: Double
            let distance: Double?
            let date: String
        }
        let platform: String
        let data: Totals
    }

    private struct ConsentAnswer: Decodable { let consent: [ConsentGrant] }
    private struct RevocationAnswer: Decodable { let revoked: [ConsentGrant] }
    private struct ConnectionAnswer: Decodable { let connection: HealthConnection }
    private struct ConnectionsAnswer: Decodable { let connections: [HealthConnection] }
    private struct DailySyncAnswer: Decodable { let syncLog: HealthSyncLog }
    private struct SyncLogsAnswer: Decodable { let syncLogs: [HealthSyncLog] }
}
