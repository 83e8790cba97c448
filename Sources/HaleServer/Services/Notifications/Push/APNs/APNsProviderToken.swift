import Crypto
import Foundation
import Synchronization

/// The APNs provider authentication token: an ES256 JWT with `kid` the key id, `iss` the team id and `iat`.
///
/// Apple refuses tokens older than an hour and throttles providers that make new ones more often than every 20
/// minutes, so one token is reused for 50 minutes, then replaced.
final class APNsProviderToken: Sendable {
    static let reuseFor: Duration = .seconds(50 * 60)

    private let key: P256.Signing.PrivateKey
    private let teamID: String
    private let keyID: String
    private let clock: HaleClock
    private let cached = Mutex<(token: String, issuedAt: Date)?>(nil)

    init(_ settings: HaleConfiguration.APNs, clock: HaleClock) throws {
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: settings.privateKeyPEM) else {
            throw ConfigError("push.apns.privateKey must be the .p8 file's PEM: a P-256 PKCS#8 key")
        }
        self.key = key
        teamID = settings.teamID
        keyID = settings.keyID
        self.clock = clock
    }

    /// The token to send now: the cached one while it is younger than `reuseFor`, else a new one.
    func current() throws -> String {
        let now = clock.now()
        return try cached.withLock { cached in
            if let cached, now.timeIntervalSince(cached.issuedAt) < Self.reuseFor.timeInterval,
                now >= cached.issuedAt
            {
                return cached.token
            }
            let token = try make(issuedAt: now)
            cached = (token, now)
            return token
        }
    }

    /// Forgets `token` after APNs called it expired or invalid, so the next send makes a new one.
    func discard(_ token: String) {
        cached.withLock { if $0?.token == token { $0 = nil } }
    }

    private func make(issuedAt: Date) throws -> String {
        try CompactJWT.make(
            header: ["alg": "ES256", "kid": keyID],
            claims: ["iss": .text(teamID), "iat": .number(Int(issuedAt.timeIntervalSince1970))]
        ) { input in
            // RFC 7518 §3.4: the JWS signature is R and S, not DER.
            Array(try key.signature(for: input).rawRepresentation)
        }
    }
}
