import ByteEncoding
import Crypto
import Foundation
import Logging

/// Sessions bound to an attested app instance (`tokens.bindToAttestation`): a session whose app proved an App Attest
/// key Hale verified is bound to that key, and each of its refreshes must carry a fresh assertion by it. A refresh
/// token copied off the phone is then worth nothing: it cannot be refreshed anywhere the key is not, and trying ends
/// the session.
public struct SessionBinding: Sendable {
    /// How sessions are bound.
    public enum Mode: String, Sendable, CaseIterable {
        /// Sessions are bearer sessions, as before.
        case off
        /// A session opened on a device with an attested key, or whose refresh proves one, is bound to it.
        case attested
        /// As `attested`, and a session that cannot be bound is refused at its first refresh.
        case required
    }

    /// How sessions are bound.
    let mode: Mode
    /// The attested keys, and the proof that a request came from one.
    let instances: (any AttestedInstances)?
    /// How long after its last proved refresh a session bound to Play Integrity may refresh unproved while its app
    /// says Google's service cannot be reached (`tokens.playIntegrityOutageGrace`); zero for never.
    var outageGrace: Duration = .zero

    /// Sessions are bearer sessions.
    static let off = SessionBinding(mode: .off, instances: nil)

    /// How a session bound to an Android app by Play Integrity names it in `attestation_key_id`: never an App Attest
    /// key's id, which is base64 and has no colon.
    static func binding(ofPlayIntegrityApp packageName: String) -> String {
        "android:" + packageName
    }

    /// The package name a session's `attestation_key_id` binds it to by Play Integrity, if it does.
    static func playIntegrityApp(ofBinding keyID: String?) -> String? {
        guard let keyID, keyID.hasPrefix("android:") else { return nil }
        return String(keyID.dropFirst("android:".count))
    }

    /// The nonce the refresh that presents `refreshToken` is attested over: HMAC-SHA256 of the token under the
    /// session's secret, base64url. It is sent with the token, so it costs no storage and no round trip, and like
    /// the token it serves one refresh (and that refresh's retries within the grace period).
    static func nonce(for refreshToken: String, secret: String) -> String {
        let key = SymmetricKey(data: Data("refresh-attestation:\(secret)".utf8))
        return Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Data(refreshToken.utf8), using: key))
    }
}

/// An App Attest key a session can be bound to.
public struct AttestedInstanceKey: Sendable, Equatable {
    /// The key's id: standard base64 of SHA-256 of its public key, as `DCAppAttestService` names it.
    public let id: String
    /// The JWK SHA-256 thumbprint of its public key (RFC 7638), which bound sessions' access tokens carry as
    /// `cnf.jkt` (RFC 7800, as DPoP's RFC 9449 does).
    public let thumbprint: String
}

/// What binding sessions needs of device attestation.
protocol AttestedInstances: Sendable {
    /// The newest attested key the account registered from `device`, if any.
    func newestKey(of account: AccountID, on device: DeviceID) async throws -> AttestedInstanceKey?
    /// The account's attested keys, newest first.
    func keys(of account: AccountID) async throws -> [AppAttestKey]
    /// Which of `keys` made `assertion`, an App Attest assertion (base64 CBOR) over SHA-256 of `requestHash`; nil
    /// when none did. It writes nothing: the refresh advances the key's counter in its own transaction.
    func check(_ assertion: String, over requestHash: String, among keys: [AppAttestKey], logger: Logger)
        async throws -> AttestedAssertion?
    /// The package name of the app whose Play Integrity token `token` is, requested with `requestHash` as its nonce
    /// and meeting the configured verdicts; nil when it is not, or when Play Integrity is not configured.
    func checkPlayIntegrity(_ token: String, over requestHash: String, logger: Logger) async -> String?
}

/// What a refresh's attestation is checked against: its session's state and the key it is bound to, read in one
/// statement before the refresh's transaction.
struct SessionBindingState: Sendable {
    /// The session's account.
    let account: AccountID
    /// The device the session was opened on, if known.
    let device: DeviceID?
    /// When the session was revoked, if it was.
    let revokedAt: Date?
    /// When the session ends.
    let expiresAt: Date
    /// The session's secret, under which its nonces are derived.
    let tokenSecret: String
    /// The key the session is bound to, if any.
    let boundKey: AttestedInstanceKey?
    /// That key's record, for checking its assertion; nil when unbound, or when the key is gone.
    let boundKeyRecord: AppAttestKey?
    /// Whether the binding was made at the session's start and is not yet confirmed (`Session.attestationProvisional`).
    let provisional: Bool

    /// The Android app the session is bound to by Play Integrity, if any.
    var boundApp: String? { SessionBinding.playIntegrityApp(ofBinding: boundKeyID) }
    /// The session's `attestation_key_id`.
    var boundKeyID: String? = nil

    /// Whether the session can still be refreshed at `now`.
    func isActive(at now: Date) -> Bool {
        revokedAt == nil && expiresAt > now
    }
}

/// An assertion that verified: by which key, and the counter it moves that key's from and to.
struct AttestedAssertion: Sendable, Equatable {
    /// The key, as a session is bound to it.
    let instance: AttestedInstanceKey
    /// The key's row.
    let row: UUID
    /// The counter it was checked against.
    let previousCounter: Int64
    /// The assertion's counter, above `previousCounter`.
    let counter: Int64
}

/// The `X-Attestation-*` headers of a refresh: what proves it comes from the app instance its session is bound to.
public struct RefreshAttestation: Sendable, Equatable {
    /// The request's attestation: its platform, the nonce the last token answer gave, and the assertion.
    public let attestation: HealthData.WriteAttestation
    /// SHA-256 of the request's exact body.
    public let bodyDigest: [UInt8]

    /// The attestation of a refresh whose body's SHA-256 is `bodyDigest`.
    public init(_ attestation: HealthData.WriteAttestation, bodyDigest: [UInt8]) {
        self.attestation = attestation
        self.bodyDigest = bodyDigest
    }

    /// What the assertion is made over, as every attested request's: base64url of SHA-256(nonce ‖ body digest).
    var requestHash: String {
        HealthData.requestHash(nonce: attestation.nonce, bodyDigest: bodyDigest)
    }
}
