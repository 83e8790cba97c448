import Crypto
import Foundation
import JWTKit

/// The ES256 keys that sign and verify access tokens, shared by every instance through the database, where their
/// private keys are sealed under the key-encryption key (`SecretSealer`); they are opened only in memory.
///
/// When the signing key is older than the rotation interval, the next key is published at once and starts signing
/// `publicationLead` later, so verifiers that cache the JWK Set learn it before they meet a token it signed. A
/// replaced key keeps verifying until its last token has expired. Instances see each other's keys within
/// `cacheLifetime`, or at once when a token names a key they have not loaded.
actor SigningKeyRing {
    struct Loaded {
        let schedule: SigningKeySchedule
        let verifying: [SigningKeyRecord]
        let collection: JWTKeyCollection
        let loadedAt: Date
    }

    /// How long an instance trusts its cached keys.
    static let cacheLifetime: TimeInterval = 30
    /// How long the JWK Set may be cached by verifiers (its `Cache-Control: max-age`).
    static let publishedMaxAge: TimeInterval = 300
    /// How far ahead of signing a rotated key is published: longer than any cache of the JWK Set.
    static let publicationLead: TimeInterval = publishedMaxAge + 2 * cacheLifetime
    /// An unknown `kid` reloads the keys at most this often, so forged tokens cannot turn into database load.
    private let unknownKeyReloadInterval: TimeInterval = 1

    private let repository: any SigningKeyRepository
    private let sealer: SecretSealer?
    private let clock: HaleClock
    private let rotationInterval: TimeInterval
    private let accessTokenLifetime: TimeInterval
    private var loaded: Loaded?

    init(
        repository: any SigningKeyRepository, sealer: SecretSealer?, clock: HaleClock, rotationInterval: Duration,
        accessTokenLifetime: Duration
    ) {
        self.repository = repository
        self.sealer = sealer
        self.clock = clock
        self.rotationInterval = rotationInterval.timeInterval
        self.accessTokenLifetime = accessTokenLifetime.timeInterval
    }

    /// The key to sign with now: the first key is made on first use, and the next one is published when due.
    func signingKey() async throws -> (kid: String, collection: JWTKeyCollection) {
        var keys = try await current()
        let now = clock.now()
        guard let active = keys.schedule.active(at: now) else {
            try await publish(activatingAt: now)
            return try await signingKey()
        }
        if now.timeIntervalSince(active.activatesAt) >= rotationInterval, keys.schedule.pending(at: now) == nil {
            try await publish(activatingAt: now.addingTimeInterval(Self.publicationLead))
            keys = try await reload()
        }
        return (active.kid, keys.collection)
    }

    /// The keys that verify tokens, reloaded at once if `kid` is not among them.
    func verificationKeys(for kid: String) async throws -> JWTKeyCollection? {
        var keys = try await current()
        let reloadedRecently = clock.now().timeIntervalSince(keys.loadedAt) < unknownKeyReloadInterval
        if !keys.verifying.contains(where: { $0.kid == kid }) && !reloadedRecently {
            keys = try await reload()
        }
        return keys.verifying.contains { $0.kid == kid } ? keys.collection : nil
    }

    /// The public halves of every key that verifies now or is about to sign, as a JWK Set.
    func jwks() async throws -> JSONWebKeySet {
        JSONWebKeySet(keys: try await current().verifying.map { try JSONWebKey(record: $0) })
    }

    /// Replaces the signing key now, as an operator does after a suspected compromise of the old one's
    /// surroundings. Verifiers that cached the JWK Set learn the new key when they next fetch it; Hale's own
    /// instances learn it at the first token it signed.
    func rotate() async throws {
        try await publish(activatingAt: clock.now())
    }

    private func publish(activatingAt activation: Date) async throws {
        let key = P256.Signing.PrivateKey()
        let kid = OpaqueToken.generate(byteCount: 12)
        let sealed = try SealedSecret.seal(
            key.pemRepresentation, purpose: SigningKeyRecord.purpose(of: kid), sealer: sealer)
        try await repository.insert(
            SigningKeyRecord(kid: kid, privateKeySealed: sealed, createdAt: clock.now(), activatesAt: activation))
        loaded = nil
    }

    private func current() async throws -> Loaded {
        if let loaded, clock.now().timeIntervalSince(loaded.loadedAt) < Self.cacheLifetime {
            return loaded
        }
        return try await reload()
    }

    private func reload() async throws -> Loaded {
        let now = clock.now()
        let horizon = now.addingTimeInterval(-(rotationInterval + accessTokenLifetime + Self.publicationLead) * 2)
        let opened = try await repository.keys(createdAfter: horizon).map { record in
            var open = record
            open.privateKeySealed = try SealedSecret.open(
                record.privateKeySealed, purpose: SigningKeyRecord.purpose(of: record.kid), sealer: sealer)
            return open
        }
        let schedule = SigningKeySchedule(keys: opened, verificationSlack: Self.cacheLifetime + 60)
        let verifying = schedule.verifying(at: now, accessTokenLifetime: accessTokenLifetime)
        let collection = JWTKeyCollection()
        for record in verifying {
            await collection.add(
                ecdsa: try ES256PrivateKey(pem: record.privateKeySealed), kid: JWKIdentifier(string: record.kid))
        }
        let fresh = Loaded(schedule: schedule, verifying: verifying, collection: collection, loadedAt: now)
        loaded = fresh
        return fresh
    }
}
