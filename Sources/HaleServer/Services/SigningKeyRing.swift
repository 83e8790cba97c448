import Crypto
import Foundation
import JWTKit

/// The ES256 keys that sign and verify access tokens, shared by every instance through the database.
///
/// The newest active key signs. When it is older than the rotation interval a new key replaces it; a replaced key
/// keeps verifying for one access-token lifetime, so no token is cut short. Instances see each other's keys within
/// `cacheLifetime`, or at once when a token names a key they have not loaded.
actor SigningKeyRing {
    struct Loaded {
        let records: [SigningKeyRecord]
        let collection: JWTKeyCollection
        let loadedAt: Date

        var active: SigningKeyRecord? { records.first { $0.retiredAt == nil } }
    }

    private let repository: any SigningKeyRepository
    private let clock: HaleClock
    private let rotationInterval: Duration
    private let verificationWindow: Duration
    private let cacheLifetime: TimeInterval = 30
    /// An unknown `kid` reloads the keys at most this often, so forged tokens cannot turn into database load.
    private let unknownKeyReloadInterval: TimeInterval = 1
    private var loaded: Loaded?

    init(
        repository: any SigningKeyRepository, clock: HaleClock, rotationInterval: Duration,
        accessTokenLifetime: Duration
    ) {
        self.repository = repository
        self.clock = clock
        self.rotationInterval = rotationInterval
        self.verificationWindow = accessTokenLifetime
    }

    /// The key to sign with now, rotating first when the active key is too old.
    func signingKey() async throws -> (kid: String, collection: JWTKeyCollection) {
        var keys = try await current()
        if let active = keys.active, clock.now().timeIntervalSince(active.createdAt) < rotationInterval.timeInterval {
            return (active.kid, keys.collection)
        }
        try await rotate()
        keys = try await reload()
        guard let active = keys.active else { throw ConfigError("no active signing key after rotation") }
        return (active.kid, keys.collection)
    }

    /// The keys that verify tokens, reloaded at once if `kid` is not among them.
    func verificationKeys(for kid: String) async throws -> JWTKeyCollection? {
        var keys = try await current()
        let reloadedRecently = clock.now().timeIntervalSince(keys.loadedAt) < unknownKeyReloadInterval
        if !keys.records.contains(where: { $0.kid == kid }) && !reloadedRecently {
            keys = try await reload()
        }
        return keys.records.contains { $0.kid == kid } ? keys.collection : nil
    }

    /// The public halves of every key that still verifies, as a JWK Set.
    func jwks() async throws -> JSONWebKeySet {
        let keys = try await current()
        return JSONWebKeySet(keys: try keys.records.map { try JSONWebKey(record: $0) })
    }

    /// Replaces the active key with a new one now.
    func rotate() async throws {
        let key = P256.Signing.PrivateKey()
        let record = SigningKeyRecord(
            kid: OpaqueToken.generate(byteCount: 12), privateKeyPem: key.pemRepresentation, createdAt: clock.now(),
            retiredAt: nil)
        try await repository.activate(record)
        loaded = nil
    }

    private func current() async throws -> Loaded {
        if let loaded, clock.now().timeIntervalSince(loaded.loadedAt) < cacheLifetime {
            return loaded
        }
        return try await reload()
    }

    private func reload() async throws -> Loaded {
        let now = clock.now()
        let records = try await repository.keys(retiredAfter: now.addingTimeInterval(-verificationWindow.timeInterval))
        let collection = JWTKeyCollection()
        for record in records {
            await collection.add(
                ecdsa: try ES256PrivateKey(pem: record.privateKeyPem), kid: JWKIdentifier(string: record.kid))
        }
        let fresh = Loaded(records: records, collection: collection, loadedAt: now)
        loaded = fresh
        return fresh
    }
}
