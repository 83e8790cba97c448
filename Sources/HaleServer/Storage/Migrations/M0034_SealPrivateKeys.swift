import Fluent
import SQLKit

/// The columns that held private keys as PEM now hold them sealed (`SecretSealer`): renamed to say so. The values
/// themselves are sealed at the next start (`SecretsAtRest.sealPlaintext`), which needs the key-encryption key that
/// migrations never see; until then a PEM left in the column still reads.
struct M0034_SealPrivateKeys: AsyncMigration {
    private static let columns = [
        ("signing_keys", "private_key_pem", "private_key_sealed"),
        ("development_attestation_authorities", "private_key_pem", "private_key_sealed"),
    ]

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        for (table, old, new) in Self.columns {
            try await sql.raw("ALTER TABLE \(ident: table) RENAME COLUMN \(ident: old) TO \(ident: new)").run()
        }
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        for (table, old, new) in Self.columns {
            try await sql.raw("ALTER TABLE \(ident: table) RENAME COLUMN \(ident: new) TO \(ident: old)").run()
        }
    }
}
