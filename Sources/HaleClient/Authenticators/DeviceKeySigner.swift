/// A device-bound key that signs sign-in challenges (seed 002): a Secure Enclave or Android Keystore key, or
/// `SoftwareDeviceKey`.
public protocol DeviceKeySigner: Sendable {
    /// The public key as a PEM SubjectPublicKeyInfo, as the app uploads it.
    var publicKeyPEM: String { get }
    /// Signs `challenge` as a client following `convention` does; returns the DER signature in standard base64.
    func sign(challenge: String, convention: DeviceSigningConvention) async throws -> String
}

extension SoftwareDeviceKey: DeviceKeySigner {}
