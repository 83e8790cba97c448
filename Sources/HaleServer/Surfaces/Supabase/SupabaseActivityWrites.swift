import Foundation
import StrictJSON

/// Seed 004's activities: rows of `activity_logs` with `source = 'healthkit'` (or another provider) and the seed's
/// SHA-256 in `source_external_id`, stored as synced samples of that provider through `HealthSync`, so consent,
/// plausibility, the sample window, rollups and challenge progress apply as to any sync, in one transaction per
/// source. A row whose `source_external_id` the account has already is ignored, as the seed's unique constraint
/// and its `ignoreDuplicates` have it.
struct SupabaseActivityWrites {
    let sync: HealthSync
    let connections: HealthConnections
    let account: AccountID
    /// What proved the request, when it was attested: its activities count towards verified challenges.
    let proof: HealthWriteProof?
    let zone: TimeZone

    /// The columns a row may name. `id` and `created_at` are Hale's to set; `challenge_id` is accepted and not
    /// kept: Hale attributes progress to every challenge the activity counts for itself.
    static let writable: Set<String> = [
        "id", "user_id", "challenge_id", "activity_type", "value", "unit", "recorded_at", "ended_at", "source",
        "source_external_id", "created_at",
    ]

    /// What was written, by provider: the `source_external_id` of each row.
    typealias Written = [(provider: HealthProvider, ids: [String])]

    /// Checks every row, then stores them, one sync per source; a row that fails a check refuses them all.
    func insert(_ rows: [[String: JSONValue]]) async throws -> Written {
        var bySource: [HealthProvider: [HealthSyncSample]] = [:]
        var order: [HealthProvider] = []
        for row in rows {
            let (provider, sample) = try Self.sample(of: row, account: account)
            if bySource[provider] == nil { order.append(provider) }
            bySource[provider, default: []].append(sample)
        }
        var checked: [(HealthProvider, HealthSync.CheckedBatch)] = []
        for provider in order {
            try await connections.requireNotDisconnected(provider, account: account)
            let batch = HealthSyncBatch(provider: provider, syncType: .manual, samples: bySource[provider]!)
            var check = try sync.check(batch, account: account, zone: zone)
            check.proof = proof
            if let refused = check.rejected.first {
                throw PostgRESTError(
                    code: "23514", status: 400, message: "\(refused.code): \(refused.message)",
                    details: "activity_logs row \(refused.index) of source \(provider.rawValue)")
            }
            checked.append((provider, check))
        }
        for (_, check) in checked { _ = try await sync.store(check, account: account, alongside: nil) }
        return order.map { provider in (provider, bySource[provider]!.compactMap(\.id)) }
    }

    /// A row as a sample of its source, or PostgREST's error for what is wrong with it.
    private static func sample(of row: [String: JSONValue], account: AccountID) throws -> (
        HealthProvider, HealthSyncSample
    ) {
        try PostgRESTRowCheck.check(row, of: "activity_logs", writable: writable, account: account)
        let source = try text(row["source"], "source") ?? "healthkit"
        guard let provider = HealthProvider(parsing: source) else {
            throw PostgRESTError(
                code: "23514", status: 400,
                message: "source must be healthkit, googlefit or health_connect: Hale keeps what a device recorded")
        }
        guard let type = try text(row["activity_type"], "activity_type") else { throw notNull("activity_type") }
        guard let recorded = try text(row["recorded_at"], "recorded_at") else { throw notNull("recorded_at") }
        guard let externalID = try text(row["source_external_id"], "source_external_id") else {
            throw notNull("source_external_id")
        }
        let value: Double
        switch row["value"] {
        case .integer(let whole)?: value = Double(whole)
        case .number(let real)?: value = real
        case nil, .null?: throw notNull("value")
        default: throw PostgRESTError.invalidValue("\(row["value"]!)", type: "numeric")
        }
        let unit = try text(row["unit"], "unit") ?? HealthSampleType.impliedUnit(ofTypeNamed: type)
        let ended = try text(row["ended_at"], "ended_at") ?? recorded
        return (
            provider,
            HealthSyncSample(
                id: externalID, type: type, value: value, unit: unit, startDate: recorded, endDate: ended)
        )
    }

    /// A text column's value: nil when absent or null, `22P02` when not a string.
    private static func text(_ value: JSONValue?, _ column: String) throws -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw PostgRESTError.invalidValue("\(value!)".prefix(64).description, type: "text")
        }
    }

    private static func notNull(_ column: String) -> PostgRESTError {
        PostgRESTError(
            code: "23502", status: 400,
            message: "null value in column \"\(column)\" of relation \"activity_logs\" violates not-null constraint")
    }
}
