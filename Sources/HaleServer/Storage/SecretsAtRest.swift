import Foundation
import SQLKit

/// The secrets Hale keeps in its database, sealed at rest under the key-encryption key: those an earlier version
/// stored in the clear (private keys as PEM; Apple refresh tokens under `socialSignIn.apple.tokenEncryptionKey`)
/// are sealed at start; `hale keys rewrap` seals every one again under the current key, so a previous key can be
/// retired.
public struct SecretsAtRest: Sendable {
    let database: HaleDatabase
    let sealer: SecretSealer
    /// The box of `socialSignIn.apple.tokenEncryptionKey`, if configured.
    let legacyAppleBox: SecretBox?

    /// A column of sealed secrets, the column that names each row, and what each value is sealed for.
    struct Column: Sendable {
        let table: String
        let key: String
        let value: String
        let purpose: @Sendable (String) -> String
    }

    static let columns = [
        Column(table: "signing_keys", key: "kid", value: "private_key_sealed", purpose: SigningKeyRecord.purpose(of:)),
        Column(
            table: "provenance_keys", key: "kid", value: "private_key_sealed",
            purpose: ProvenanceKeyRecord.purpose(of:)),
        Column(
            table: "development_attestation_authorities", key: "id", value: "private_key_sealed",
            purpose: { _ in DevelopmentAuthorityRecord.purpose }),
        Column(
            table: "social_identities", key: "id", value: "refresh_token_sealed",
            purpose: { _ in AppleRefreshTokens.purpose }),
        Column(
            table: "apple_token_revocations", key: "id", value: "refresh_token_sealed",
            purpose: { _ in AppleRefreshTokens.purpose }),
        Column(
            table: "webhook_endpoints", key: "id", value: "secret_sealed", purpose: WebhookEndpointRecord.purpose(of:)),
        Column(
            table: "webhook_endpoints", key: "id", value: "previous_secret_sealed",
            purpose: WebhookEndpointRecord.purpose(of:)),
    ]

    /// What a pass sealed.
    public struct Resealed: Sendable, Equatable {
        /// Values sealed again, by table.
        public var byTable: [String: Int] = [:]
        /// Values sealed again in all.
        public var total: Int { byTable.values.reduce(0, +) }
    }

    /// Seals the values an earlier version kept in the clear, or under the Apple token key: what `hale serve` does
    /// at start.
    public func sealLegacy() async throws -> Resealed {
        try await reseal { value in !SecretSealer.isSealed(value) }
    }

    /// Seals every value not sealed under the current key again under it (`hale keys rewrap`).
    public func rewrap() async throws -> Resealed {
        try await reseal { sealer.needsRewrap($0) }
    }

    private func reseal(where needed: (String) -> Bool) async throws -> Resealed {
        var resealed = Resealed()
        for column in Self.columns {
            let rows = try await database.sql.select().column(SQLColumn(column.key)).column(SQLColumn(column.value))
                .from(column.table).where(SQLColumn(column.value), .isNot, SQLLiteral.null).all()
            for row in rows {
                let key = try Self.key(row, column.key)
                let value = try row.decode(column: column.value, as: String.self)
                guard needed(value) else { continue }
                let purpose = column.purpose(key)
                guard let plain = open(value, purpose: purpose) else {
                    throw ConfigError(
                        "a value of \(column.table).\(column.value) does not open with the configured keys: add the key"
                            + " it was sealed under to secrets.previousKeyEncryptionKeys (or, for an Apple token,"
                            + " socialSignIn.apple.tokenEncryptionKey), then run this again")
                }
                // The row is found by its value, so one that changed meanwhile is left as it now is. (Sealed values
                // are unique, and so is each PEM: the same value twice in a table is the same secret.)
                try await database.sql.update(column.table)
                    .set(SQLColumn(column.value), to: SQLBind(try sealer.seal(plain, purpose: purpose)))
                    .where(SQLColumn(column.value), .equal, SQLBind(value)).run()
                resealed.byTable[column.table, default: 0] += 1
            }
        }
        return resealed
    }

    private func open(_ value: String, purpose: String) -> Data? {
        if SealedSecret.isLegacyPEM(value) { return Data(value.utf8) }
        if SecretSealer.isSealed(value) { return sealer.open(value, purpose: purpose) }
        return legacyAppleBox?.open(value, purpose: purpose).map { Data($0.utf8) }
    }

    /// A row's key as text: a string column's value, or a UUID's.
    private static func key(_ row: any SQLRow, _ column: String) throws -> String {
        if let text = try? row.decode(column: column, as: String.self) { return text }
        return try row.decode(column: column, as: UUID.self).uuidString
    }
}
