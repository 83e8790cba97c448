import Crypto
import Foundation

/// A software P-256 device key, for tests, tools and server-to-server use: it exports its public key and signs
/// challenges exactly as the documented mobile clients do.
public struct SoftwareDeviceKey: Sendable {
    /// The private key.
    public let privateKey: P256.Signing.PrivateKey

    /// A new random key.
    public init() {
        privateKey = P256.Signing.PrivateKey()
    }

    /// Wraps an existing private key.
    public init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// Loads a key from its 32-byte raw scalar.
    public init(rawRepresentation: [UInt8]) throws {
        privateKey = try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation)
    }

    /// Loads a key from a PEM `PRIVATE KEY` (PKCS #8) or `EC PRIVATE KEY` (SEC 1) document.
    public init(pemRepresentation: String) throws {
        privateKey = try P256.Signing.PrivateKey(pemRepresentation: pemRepresentation)
    }

    /// The public key as the native iOS client exports it: a SubjectPublicKeyInfo in PEM, base64 wrapped at 64
    /// characters, LF line endings, no line break after the footer.
    public var publicKeyPEM: String {
        PublicKeyPEM.encode(der: privateKey.publicKey.derRepresentation)
    }

    /// The public key as a DER SubjectPublicKeyInfo.
    public var publicKeyDER: [UInt8] {
        Array(privateKey.publicKey.derRepresentation)
    }

    /// Signs `challenge` as a client following `convention` does; returns the DER signature in padded standard base64.
    public func sign(challenge: String, convention: DeviceSigningConvention) throws -> String {
        try privateKey.signature(for: convention.message(for: challenge)).derRepresentation.base64EncodedString()
    }
}
