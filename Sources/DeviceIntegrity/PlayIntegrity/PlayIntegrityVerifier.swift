import Crypto
import Foundation

/// Verifies Play Integrity tokens locally, with the keys from Play Console, as "Decrypt and verify the integrity
/// verdict locally" describes; then checks the verdict against the configured apps and policy.
///
/// Pure: the time to verify at is a parameter; issuing and consuming nonces is the caller's.
public struct PlayIntegrityVerifier: Sendable {
    /// The apps whose tokens are accepted.
    public let apps: [PlayIntegrityApp]
    /// What verdicts must meet.
    public let policy: PlayIntegrityPolicy
    let decryptionKey: SymmetricKey
    let verificationKey: P256.Signing.PublicKey

    /// A verifier. `decryptionKey` is the base64 AES-256 key from Play Console; `verificationKey` is the base64
    /// DER SubjectPublicKeyInfo (EC P-256) from Play Console. Throws ``PlayIntegrityError/invalidConfiguration``
    /// when a key does not decode or `apps` is empty.
    public init(
        decryptionKey: String, verificationKey: String, apps: [PlayIntegrityApp], policy: PlayIntegrityPolicy = .init()
    ) throws {
        guard !apps.isEmpty, let aesKey = Data(base64Encoded: decryptionKey), aesKey.count == 32,
            let spki = Data(base64Encoded: verificationKey),
            let publicKey = try? P256.Signing.PublicKey(derRepresentation: spki)
        else {
            throw PlayIntegrityError.invalidConfiguration
        }
        self.apps = apps
        self.policy = policy
        self.decryptionKey = SymmetricKey(data: aesKey)
        self.verificationKey = publicKey
    }

    /// Decrypts the compact JWE (exactly A256KW + A256GCM) with the decryption key, verifies the inner ES256 JWS
    /// with the verification key, then checks in turn: the request and app package names are a configured app's;
    /// a signing certificate digest is that app's; the nonce or request hash is `nonce`; `timestampMillis` is at
    /// most `maximumAge` before `time` and at most `maximumClockSkew` after it; and the verdicts meet the policy.
    public func verify(_ token: String, nonce: String, at time: Date) throws(PlayIntegrityError)
        -> PlayIntegrityVerdict
    {
        let jws = try CompactJWS(try CompactJWE(token).decrypt(with: decryptionKey))
        let payload = try PlayIntegrityPayload(json: try jws.verifiedPayload(with: verificationKey))
        let app = try matchingApp(payload)
        try checkNonce(payload.requestDetails, nonce)
        try checkTimestamp(payload.requestDetails.timestampMillis.date, at: time)
        try checkVerdicts(payload)
        return PlayIntegrityVerdict(payload, app: app)
    }
}
