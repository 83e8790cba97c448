import Foundation

/// A registration that verified: what to store for the new credential and what the attestation proved.
public struct VerifiedRegistration: Sendable {
    /// The credential ID.
    public let credentialID: [UInt8]
    /// The COSE_Key bytes of the credential public key, exactly as the authenticator sent them.
    public let publicKey: [UInt8]
    /// The credential's algorithm.
    public let algorithm: COSEAlgorithm
    /// The signature counter at registration.
    public let signCount: UInt32
    /// The authenticator model's AAGUID.
    public let aaguid: String
    /// The attestation statement format.
    public let format: String
    /// What the attestation proves.
    public let attestationType: AttestationType
    /// Whether the attestation chain led to a configured trust anchor.
    public let attestationTrusted: Bool
    /// Whether the user was verified.
    public let userVerified: Bool
    /// Whether the credential may be backed up (a synced passkey).
    public let backupEligible: Bool
    /// Whether it is backed up now.
    public let backupState: Bool
    /// The transports the client reported that `AuthenticatorTransport` knows, each once.
    public let transports: [String]
}
