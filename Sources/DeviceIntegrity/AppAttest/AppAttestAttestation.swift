import Crypto

/// What a verified App Attest attestation yields: the key to verify the app's assertions with, and what it was
/// attested for. Store it with the device.
public struct AppAttestAttestation: Sendable {
    /// The key ID: SHA-256 of the credential public key in its 65-byte X9.63 form.
    public let keyID: [UInt8]
    /// The attested public key.
    public let publicKey: P256.Signing.PublicKey
    /// The receipt, to exchange with Apple for fraud metrics.
    public let receipt: [UInt8]
    /// The environment the key was made in.
    public let environment: AppAttestEnvironment
    /// The configured app the key belongs to.
    public let app: AppAttestApp
    /// The signature counter, 0 for a new key.
    public let counter: UInt32

    /// The public key as a PEM `PUBLIC KEY` document.
    public var publicKeyPEM: String { publicKey.pemRepresentation }
}
