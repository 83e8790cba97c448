import Crypto
import Foundation
import JWTKit

/// The ES256 keys that sign provenance statements, shared by every instance through the database. The oldest key
/// signs, made on first use; every key is published in the JWK Set beside the access-token keys and never retired,
/// so a statement verifies for as long as anyone keeps it. Rotating the access-token keys leaves them alone.
actor ProvenanceKeys {
    private struct Loaded {
        let records: [ProvenanceKeyRecord]
        let collection: JWTKeyCollection
        let loadedAt: Date
    }

    private let repository: any ProvenanceKeyRepository
    private let sealer: SecretSealer?
    private let clock: HaleClock
    private var loaded: Loaded?

    init(repository: any ProvenanceKeyRepository, sealer: SecretSealer?, clock: HaleClock) {
        self.repository = repository
        self.sealer = sealer
        self.clock = clock
    }

    /// The key that signs: the oldest, so that instances that made one at once agree on it.
    func signingKey() async throws -> (kid: String, collection: JWTKeyCollection) {
        var keys = try await current()
        if keys.records.isEmpty {
            try await create()
            keys = try await reload()
        }
        guard let oldest = keys.records.first else { throw HaleError.internalError }
        return (oldest.kid, keys.collection)
    }

    /// The public halves of every provenance key.
    func publicKeys() async throws -> [JSONWebKey] {
        try await current().records.map { try JSONWebKey(kid: $0.kid, privateKeyPEM: $0.privateKeySealed) }
    }

    private func create() async throws {
        let key = P256.Signing.PrivateKey()
        let kid = "provenance-" + OpaqueToken.generate(byteCount: 12)
        let sealed = try SealedSecret.seal(
            key.pemRepresentation, purpose: ProvenanceKeyRecord.purpose(of: kid), sealer: sealer)
        try await repository.insert(ProvenanceKeyRecord(kid: kid, privateKeySealed: sealed, createdAt: clock.now()))
    }

    private func current() async throws -> Loaded {
        if let loaded, clock.now().timeIntervalSince(loaded.loadedAt) < SigningKeyRing.cacheLifetime {
            return loaded
        }
        return try await reload()
    }

    private func reload() async throws -> Loaded {
        let records = try await repository.keys().map { record in
            var open = record
            open.privateKeySealed = try SealedSecret.open(
                record.privateKeySealed, purpose: ProvenanceKeyRecord.purpose(of: record.kid), sealer: sealer)
            return open
        }
        let collection = JWTKeyCollection()
        for record in records {
            await collection.add(
                ecdsa: try ES256PrivateKey(pem: record.privateKeySealed), kid: JWKIdentifier(string: record.kid))
        }
        let fresh = Loaded(records: records, collection: collection, loadedAt: clock.now())
        loaded = fresh
        return fresh
    }
}
