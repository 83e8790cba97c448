import ByteEncoding
import Crypto
import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import WebAuthn

@testable import HaleServer

/// Private keys and tokens are sealed under a key-encryption key that never enters the database: a dump yields none,
/// keys stored in the clear by an earlier version are sealed at start, and `hale keys rewrap` moves every value to a
/// new key.
@Suite("Secrets at rest: sealed under the key-encryption key")
struct SecretsAtRestTests {
    static let otherKey = Data(repeating: 0x77, count: 32).base64EncodedString()

    /// Every column of every table as text.
    static func dump(_ app: Application) async throws -> [String] {
        let sql = app.hale.database.sql
        let isPostgres = app.hale.database.isPostgres
        let tables = try await sql.raw(
            isPostgres
                ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'"
                : "SELECT name FROM sqlite_master WHERE type = 'table'"
        ).all().map { try $0.decode(column: "name", as: String.self) }
        var values: [String] = []
        for table in tables {
            let columns = try await sql.raw(
                isPostgres
                    ? "SELECT column_name AS name FROM information_schema.columns WHERE table_name = \(bind: table)"
                    : "SELECT name FROM pragma_table_info(\(bind: table))"
            ).all().map { try $0.decode(column: "name", as: String.self) }
            for column in columns {
                let cast: SQLQueryString = isPostgres ? "\(ident: column)::text" : "CAST(\(ident: column) AS TEXT)"
                let rows = try await sql.raw("SELECT \(cast) AS v FROM \(ident: table)").all()
                values += rows.compactMap { try? $0.decode(column: "v", as: String?.self) }
            }
        }
        return values
    }

    @Test(
        "a database dump holds no PEM, no private key's bytes and no Apple token, in any column",
        arguments: TestDatabase.available)
    func aDumpYieldsNoPrivateKey(database: TestDatabase) async throws {
        let provider = try await FakeSocialProvider.start()
        defer { Task { await provider.stop() } }
        var settings = provider.settings
        settings["appAttest.developmentMode"] = "true"
        try await withHale(on: database, settings: settings) { app in
            try await app.hale.prepareSigningKey()
            try await app.hale.rotateSigningKey()
            _ = try await app.hale.developmentAttestation?.rootCertificate()
            _ = try await AppleLifecycleTests.signIn(app, provider, subject: "001.apple")

            let values = try await Self.dump(app)
            #expect(values.count > 50, "the dump read the tables")
            let sealer = try #require(app.hale.sealer)
            // PEM of anything but a certificate (the development CA's root is public).
            #expect(
                !values.contains {
                    $0.replacingOccurrences(of: "-----BEGIN CERTIFICATE-----", with: "").contains("-----BEGIN")
                })
            var secrets: [String] = ["PRIVATE KEY"]
            let authority = try #require(
                try await SQLDevelopmentAuthorityRepository(database: app.hale.database).authority())
            let authorityPEM = try #require(
                sealer.openText(authority.privateKeySealed, purpose: DevelopmentAuthorityRecord.purpose))
            let authorityKey = try P256.Signing.PrivateKey(pemRepresentation: authorityPEM).rawRepresentation
            secrets += [authorityKey.base64EncodedString(), Hex.encode(Array(authorityKey))]
            let keys = try await SQLSigningKeyRepository(database: app.hale.database).keys(createdAfter: .distantPast)
            #expect(keys.count == 2)
            for record in keys {
                let pem = try #require(
                    sealer.openText(record.privateKeySealed, purpose: SigningKeyRecord.purpose(of: record.kid)))
                let raw = try P256.Signing.PrivateKey(pemRepresentation: pem).rawRepresentation
                secrets += [raw.base64EncodedString(), Base64URL.encode(raw), Hex.encode(Array(raw))]
            }
            secrets += provider.issuedAppleRefreshTokens
            #expect(!provider.issuedAppleRefreshTokens.isEmpty)
            for secret in secrets {
                #expect(!values.contains { $0.contains(secret) }, "a column holds \(secret.prefix(12))…")
            }
        }
    }

    @Test(
        "a key an earlier version stored as PEM is sealed at start and still signs", arguments: TestDatabase.available)
    func aLegacyKeyIsSealedAtStart(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let key = P256.Signing.PrivateKey()
            try await SQLSigningKeyRepository(database: app.hale.database).insert(
                SigningKeyRecord(
                    kid: "legacy", privateKeySealed: key.pemRepresentation, createdAt: Date(),
                    activatesAt: Date(timeIntervalSinceNow: -60)))
            let secrets = try #require(app.hale.secretsAtRest)
            #expect(try await secrets.sealLegacy().byTable == ["signing_keys": 1])
            #expect(try await secrets.sealLegacy().total == 0, "once")
            let stored = try await SQLSigningKeyRepository(database: app.hale.database).keys(createdAfter: .distantPast)
            #expect(stored.map(\.privateKeySealed).allSatisfy { SecretSealer.isSealed($0) })
            let jwks = try await app.hale.jwks()
            #expect(jwks.keys.map(\.kid) == ["legacy"])
            let x = Base64URL.encode(Array(key.publicKey.x963Representation)[1...32])
            #expect(jwks.keys.first?.x == x, "the same key, opened")
        }
    }

    @Test(
        "rewrapped under a new key with the old one previous, every value opens with the new key alone",
        arguments: TestDatabase.available)
    func rewrapMovesEveryValueToTheNewKey(database: TestDatabase) async throws {
        let (url, dispose) = try await database.provision()
        defer { Task { await dispose() } }
        let folder = try privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = testKeyEncryptionKey
        var settings = ["secrets.keyEncryptionKey": old, "server.dataDirectory": folder.path]
        var kids: [String] = []
        try await withHale(databaseURL: url, settings: settings) { app in
            try await app.hale.prepareSigningKey()
            kids = try await app.hale.jwks().keys.map(\.kid)
        }
        settings["secrets.keyEncryptionKey"] = Self.otherKey
        await #expect(throws: ConfigError.self, "the new key alone opens nothing yet") {
            try await withHale(databaseURL: url, settings: settings) { app in _ = try await app.hale.jwks() }
        }
        settings["secrets.previousKeyEncryptionKeys"] = old
        try await withHale(databaseURL: url, settings: settings) { app in
            #expect(try await app.hale.jwks().keys.map(\.kid) == kids, "old values open with the previous key")
            let resealed = try await #require(app.hale.secretsAtRest).rewrap()
            #expect(resealed.byTable == ["signing_keys": 1, "provenance_keys": 1])
        }
        settings["secrets.previousKeyEncryptionKeys"] = nil
        try await withHale(databaseURL: url, settings: settings) { app in
            let opened = try await app.hale.jwks().keys.map(\.kid)
            #expect(opened == kids)
        }
    }

    @Test func anEmbeddedInstallationMakesItsKeyOnceAndKeepsItPrivate() throws {
        let folder = try privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = try HaleConfiguration(
            ConfigValues(["database.url": "sqlite:\(folder.path)/hale.sqlite"]))
        let first = try #require(try KeyEncryptionKeys.sealer(for: configuration))
        let second = try #require(try KeyEncryptionKeys.sealer(for: configuration))
        #expect(first.current.id == second.current.id)
        let file = folder.appendingPathComponent(KeyEncryptionKeys.fileName)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        #expect(throws: ConfigError.self) { try KeyEncryptionKeys.sealer(for: configuration) }
        let postgres = try HaleConfiguration(ConfigValues(["database.url": "postgres://hale@127.0.0.1/hale"]))
        #expect(try KeyEncryptionKeys.sealer(for: postgres) == nil, "under PostgreSQL, never a file")
    }

    @Test func aSealedValueOpensOnlyForItsPurposeAndUnaltered() throws {
        let sealer = SecretSealer(current: try SecretSealer.Key(base64: testKeyEncryptionKey, setting: "test"))
        let sealed = try sealer.seal("secret", purpose: "signing-key:a")
        #expect(sealer.openText(sealed, purpose: "signing-key:a") == "secret")
        #expect(sealer.openText(sealed, purpose: "signing-key:b") == nil, "moved to another row")
        var altered = Array(sealed)
        altered[altered.count / 2 + 10] = altered[altered.count / 2 + 10] == "A" ? "B" : "A"
        #expect(sealer.openText(String(altered), purpose: "signing-key:a") == nil)
        let other = SecretSealer(current: try SecretSealer.Key(base64: Self.otherKey, setting: "test"))
        #expect(other.openText(sealed, purpose: "signing-key:a") == nil)
        #expect(other.needsRewrap(sealed) && !sealer.needsRewrap(sealed))
        #expect(throws: ConfigError.self) { try SecretSealer.Key(base64: "c2hvcnQ=", setting: "test") }
    }
}
