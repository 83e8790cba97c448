import ByteEncoding
import Crypto
import Foundation
import Logging

extension HealthData {
    /// Which routes that write health data require an attestation (`health.requireAttestation`).
    public enum RequiredAttestation: String, Sendable {
        /// Seed 001's `POST /health` only, whose body carries its own.
        case uploads
        /// Every route that writes health data: the others carry theirs in headers, bound to the body.
        case all
    }

    /// The attestation of a request that writes health data, from its `X-Attestation-*` headers.
    public struct WriteAttestation: Sendable, Equatable {
        /// `ios` or `android`.
        public let platform: DeviceAttestation.Platform
        /// A nonce from `GET /health/attestation-nonce`.
        public let nonce: String
        /// An App Attest assertion (or attestation) in base64, or a Play Integrity token, made over `requestHash`.
        public let token: String

        /// The headers' names.
        public static let platformHeader = "X-Attestation-Platform"
        /// The nonce's header.
        public static let nonceHeader = "X-Attestation-Nonce"
        /// The token's header.
        public static let tokenHeader = "X-Attestation-Token"
    }

    /// What a write's attestation is made over: base64url, unpadded, of SHA-256(UTF-8 of `nonce` ‖ `bodyDigest`),
    /// the body's SHA-256.
    /// An App Attest assertion signs SHA-256 of its UTF-8 as `POST /health`'s signs the nonce's; a Play Integrity
    /// token carries it as its nonce. So a token answers for one body once.
    public static func requestHash(nonce: String, bodyDigest: SHA256Digest) -> String {
        requestHash(nonce: nonce, bodyDigest: Array(bodyDigest))
    }

    /// `requestHash` of a body whose SHA-256 is `bodyDigest`'s 32 bytes: an upload's, declared before it arrives.
    static func requestHash(nonce: String, bodyDigest: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(data: Array(nonce.utf8))
        hash.update(data: bodyDigest)
        return Base64URL.encode(hash.finalize())
    }

    /// Whether every write of health data needs an attestation (`health.requireAttestation: all`).
    public var writesRequireAttestation: Bool { requiredAttestation == .all }

    /// Checks the attestation of a request that writes health data: the nonce is the account's and consumed once,
    /// and the token made over the request's hash. Returns what proved it, for the write to keep.
    @discardableResult
    public func verifyWrite(
        _ attestation: WriteAttestation?, bodyDigest: [UInt8], account: AccountID, device: DeviceID?,
        logger: Logger
    ) async throws -> HealthWriteProof {
        guard let attestation else { throw Self.attestationRequired }
        try await consumeNonce(attestation.nonce, of: account)
        let evidence = try await self.attestation.verify(
            attestation.token, platform: attestation.platform,
            nonce: Self.requestHash(nonce: attestation.nonce, bodyDigest: bodyDigest), account: account, device: device,
            logger: logger)
        return HealthWriteProof(
            id: UUID(), accountId: account, platform: evidence.platform.rawValue, keyId: evidence.keyId,
            appId: evidence.appId, appVersion: evidence.appVersion, counter: evidence.counter, nonce: attestation.nonce,
            bodySha256: Base64URL.encode(bodyDigest), createdAt: clock.now())
    }

    /// Checks a health-data write's attestation whenever it carries one, and requires one when
    /// `writesRequireAttestation`: what proved the write, when it was attested, so its samples count towards
    /// verified challenges and name their device. An attestation that fails is refused as `verifyWrite` refuses it,
    /// never ignored.
    public func attest(
        _ attestation: WriteAttestation?, bodyDigest: [UInt8], account: AccountID, device: DeviceID?, logger: Logger
    ) async throws -> HealthWriteProof? {
        guard attestation != nil || writesRequireAttestation else { return nil }
        return try await verifyWrite(
            attestation, bodyDigest: bodyDigest, account: account, device: device, logger: logger)
    }

    static let attestationRequired = HaleError(
        .attestationRequired, .unauthenticated,
        message:
            "This server requires an attestation of every health-data write: send X-Attestation-Platform,"
            + " X-Attestation-Nonce and X-Attestation-Token.")
}
