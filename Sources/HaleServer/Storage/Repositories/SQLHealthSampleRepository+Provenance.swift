import Foundation
import SQLKit

/// An attested, device-recorded sample and what proved the write that brought it.
struct ProvenancedSample: Sendable {
    let sample: HealthSample
    let proof: HealthWriteProof
}

/// What provenance statements read of the stored samples.
protocol HealthProvenanceStore: Sendable {
    /// The account's samples that attested writes brought, not typed in, overlapping `start ..< end`, with their
    /// proofs; at most `limit`.
    func attestedSamples(of account: AccountID, overlapping start: Date, _ end: Date, limit: Int) async throws
        -> [ProvenancedSample]
    /// When the account's earliest sample that an attested write brought starts; nil when there is none.
    func earliestAttestedStart(of account: AccountID) async throws -> Date?
}

extension SQLHealthSampleRepository: HealthProvenanceStore {
    func earliestAttestedStart(of account: AccountID) async throws -> Date? {
        try await database.sql.select().column(SQLFunction("MIN", args: SQLColumn("start_at")), as: "earliest")
            .from("health_samples").where("account_id", .equal, account).where("proof_id", .isNot, SQLLiteral.null)
            .first(decodingColumn: "earliest", as: Date?.self) ?? nil
    }

    func attestedSamples(of account: AccountID, overlapping start: Date, _ end: Date, limit: Int) async throws
        -> [ProvenancedSample]
    {
        let rows = try await database.sql.raw(
            """
            SELECT s.type, s.value, s.start_at, s.end_at, s.utc_offset_seconds, s.device_model, s.device_type,
                p.id, p.platform, p.key_id, p.app_id, p.app_version, p.counter, p.nonce, p.body_sha256, p.created_at
            FROM health_samples s JOIN health_write_proofs p ON p.id = s.proof_id AND p.account_id = s.account_id
            WHERE s.account_id = \(bind: account) AND s.start_at < \(bind: end) AND s.end_at >= \(bind: start)
                AND s.user_entered = \(bind: false)
            ORDER BY s.start_at, s.id LIMIT \(bind: limit)
            """
        ).all()
        return try rows.compactMap { row in
            guard let type = HealthSampleType(rawValue: try row.decode(column: "type", as: String.self)),
                let quantity = try? HealthQuantity(
                    type: type, canonicalValue: row.decode(column: "value", as: Double.self)),
                let sample = try? HealthSample(
                    quantity: quantity, start: row.decode(column: "start_at", as: Date.self),
                    end: row.decode(column: "end_at", as: Date.self),
                    utcOffsetSeconds: row.decode(column: "utc_offset_seconds", as: Int.self),
                    source: SampleSource(
                        deviceModel: row.decode(column: "device_model", as: String?.self),
                        deviceType: row.decode(column: "device_type", as: String?.self), isAttested: true))
            else {
                return nil
            }
            let proof = HealthWriteProof(
                id: try row.decode(column: "id", as: UUID.self), accountId: account,
                platform: try row.decode(column: "platform", as: String.self),
                keyId: try row.decode(column: "key_id", as: String?.self),
                appId: try row.decode(column: "app_id", as: String.self),
                appVersion: try row.decode(column: "app_version", as: String?.self),
                counter: try row.decode(column: "counter", as: Int64?.self),
                nonce: try row.decode(column: "nonce", as: String.self),
                bodySha256: try row.decode(column: "body_sha256", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Date.self))
            return ProvenancedSample(sample: sample, proof: proof)
        }
    }
}
