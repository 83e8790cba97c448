import CBOR
import Crypto
import DeviceIntegrity
import Foundation
import Logging
import WebAuthn

/// Seed 001's device attestation: App Attest for iOS apps, Play Integrity for Android apps. Every failure is the
/// document's one 401, "Attestation verification failed"; why goes to the log.
public struct DeviceAttestation: Sendable {
    /// The platform a submission says it comes from.
    public enum Platform: String, Sendable {
        case ios, android
    }

    let appAttest: AppAttestVerifier?
    /// Development attestation, whose verifier also trusts the development CA; nil unless the mode is on.
    let development: DevelopmentAttestation?
    let playIntegrity: PlayIntegrityVerifier?
    let keys: any AppAttestKeyRepository
    let clock: HaleClock

    /// How many of an account's App Attest keys it keeps, and an assertion is tried against: each installation of the
    /// app makes a new key, so registering one more deletes the oldest.
    static let keyLimit = 10
    static let failed = HaleError(.attestationFailed, .unauthenticated, message: "Attestation verification failed")

    /// The clientDataHash an app passes to `attestKey` and `generateAssertion` for `nonce`: SHA-256 of its UTF-8.
    static func clientDataHash(_ nonce: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(nonce.utf8)))
    }

    /// Verifies an App Attest attestation made with `nonce` and stores its key for the account (and device).
    /// `keyID` may be omitted: the attestation names its key.
    func register(
        attestation: [UInt8], keyID: [UInt8]?, nonce: String, account: AccountID, device: DeviceID?, logger: Logger
    ) async throws -> AppAttestKey {
        guard let keyID = keyID ?? Self.credentialID(of: attestation) else { throw Self.refused("MALFORMED", logger) }
        let (verified, fromDevelopment) = try await verifyAttestation(
            attestation, keyID: keyID, clientDataHash: Self.clientDataHash(nonce), logger: logger)
        let key = AppAttestKey(
            id: UUID(), accountId: account, deviceId: device, keyId: Data(verified.keyID).base64EncodedString(),
            publicKey: verified.publicKey.x963Representation.base64EncodedString(), appId: verified.app.appID,
            environment: verified.environment.rawValue, counter: Int64(verified.counter),
            receipt: Data(verified.receipt).base64EncodedString(), fromDevelopmentAuthority: fromDevelopment,
            createdAt: clock.now(), lastUsedAt: nil)
        guard try await keys.insert(key, keepingNewest: Self.keyLimit) else {
            throw Self.refused("KEY_REGISTERED", logger)
        }
        return key
    }

    /// Verifies the `attestationToken` of a submission made with `nonce`, and says what it proved. For iOS it is
    /// base64 CBOR: an assertion by one of the account's attested keys, or — as seed 001's iOS sample sends — an
    /// attestation of a new key.
    @discardableResult
    func verify(
        _ token: String, platform: Platform, nonce: String, account: AccountID, device: DeviceID?, logger: Logger
    ) async throws -> Evidence {
        switch platform {
        case .android:
            guard let playIntegrity else { throw Self.notConfigured(.android, logger) }
            do {
                let verdict = try playIntegrity.verify(token, nonce: nonce, at: clock.now())
                return Evidence(
                    platform: .android, keyId: nil, appId: verdict.app.packageName, appVersion: verdict.versionCode,
                    counter: nil)
            } catch {
                throw Self.refused(error.code, logger)
            }
        case .ios:
            guard let data = Data(base64Encoded: token) else { throw Self.refused("MALFORMED", logger) }
            let bytes = [UInt8](data)
            let (key, counter) =
                if Self.isAttestation(bytes) {
                    (
                        try await register(
                            attestation: bytes, keyID: nil, nonce: nonce, account: account, device: device,
                            logger: logger), Int64(0)
                    )
                } else {
                    try await verifyAssertion(bytes, nonce: nonce, account: account, logger: logger)
                }
            return Evidence(platform: .ios, keyId: key.keyId, appId: key.appId, appVersion: nil, counter: counter)
        }
    }

    /// Verifies an assertion over `nonce` by one of the account's keys and advances that key's counter; returns the
    /// key and the counter it moved to.
    @discardableResult
    func verifyAssertion(_ assertion: [UInt8], nonce: String, account: AccountID, logger: Logger) async throws
        -> (key: AppAttestKey, counter: Int64)
    {
        let keys = try await keys.keys(of: account, limit: Self.keyLimit)
        guard let (key, counter) = try await check(assertion, nonce: nonce, among: keys, logger: logger) else {
            throw Self.refused("NO_MATCHING_KEY", logger)
        }
        guard try await self.keys.advance(key.id, from: key.counter, to: counter, at: clock.now()) else {
            throw Self.refused("COUNTER_REPLAY", logger)
        }
        return (key, counter)
    }

    /// Which of `keys` made `assertion` over `nonce`, and the counter it moves that key to; nil when none did. It
    /// reads nothing and writes nothing: the caller advances the counter, in its own transaction if it likes.
    func check(_ assertion: [UInt8], nonce: String, among keys: [AppAttestKey], logger: Logger) async throws
        -> (key: AppAttestKey, counter: Int64)?
    {
        guard let appAttest = try await appAttestVerifier() else { throw Self.notConfigured(.ios, logger) }
        for key in keys {
            guard usable(key), let publicKey = Self.publicKey(of: key),
                let app = appAttest.apps.first(where: { $0.appID == key.appId })
            else {
                continue
            }
            do {
                let counter = try appAttest.verifyAssertion(
                    assertion, publicKey: publicKey, clientDataHash: Self.clientDataHash(nonce),
                    previousCounter: UInt32(clamping: key.counter), app: app)
                return (key, Int64(counter))
            } catch .badSignature {
                continue
            } catch {
                throw Self.refused(error.code, logger)
            }
        }
        return nil
    }

    /// Whether an assertion by `key` may count: a key the development authority certified only while the mode is on.
    func usable(_ key: AppAttestKey) -> Bool {
        development != nil || !key.fromDevelopmentAuthority
    }

    /// Verifies an attestation against Apple's (or the configured) root and, in development mode, against the
    /// development CA; says which certified it, so the key can be refused once the mode is off.
    private func verifyAttestation(_ attestation: [UInt8], keyID: [UInt8], clientDataHash: [UInt8], logger: Logger)
        async throws -> (AppAttestAttestation, fromDevelopment: Bool)
    {
        let now = clock.now()
        var failure: AppAttestError?
        if let appAttest {
            do {
                return (
                    try await appAttest.verifyAttestation(
                        attestation, keyID: keyID, clientDataHash: clientDataHash, at: now),
                    false
                )
            } catch {
                failure = error
            }
        }
        if let development {
            do {
                let verifier = try await development.verifier()
                return (
                    try await verifier.verifyAttestation(
                        attestation, keyID: keyID, clientDataHash: clientDataHash, at: now),
                    true
                )
            } catch let error as AppAttestError {
                failure = error
            }
        }
        guard let failure else { throw Self.notConfigured(.ios, logger) }
        throw Self.refused(failure.code, logger)
    }

    private func appAttestVerifier() async throws -> AppAttestVerifier? {
        guard let development else { return appAttest }
        return try await development.verifier()
    }

    static func publicKey(of key: AppAttestKey) -> P256.Signing.PublicKey? {
        Data(base64Encoded: key.publicKey).flatMap { try? P256.Signing.PublicKey(x963Representation: $0) }
    }

    /// Whether the CBOR is an attestation object (it has `fmt`) rather than an assertion.
    static func isAttestation(_ bytes: [UInt8]) -> Bool {
        (try? CBORDecoder().decode(bytes))?["fmt"] != nil
    }

    /// The credential id an attestation object's authenticator data names.
    static func credentialID(of attestation: [UInt8]) -> [UInt8]? {
        guard let authData = (try? CBORDecoder().decode(attestation))?["authData"]?.bytes,
            let parsed = try? AuthenticatorData(bytes: authData, accepting: .appAttest)
        else {
            return nil
        }
        return parsed.attestedCredentialData?.credentialID
    }

    static func refused(_ reason: String, _ logger: Logger) -> HaleError {
        logger.notice("device attestation refused", metadata: ["reason": "\(reason)"])
        return failed
    }

    private static func notConfigured(_ platform: Platform, _ logger: Logger) -> HaleError {
        logger.warning(
            "device attestation refused: not configured", metadata: ["platform": "\(platform.rawValue)"])
        return failed
    }
}
