import Crypto
import _CryptoExtras

/// A device's public key as registered by a mobile client: an EC P-256 key or an RSA key of 2048 to 8192 bits.
///
/// The key type is read from the SubjectPublicKeyInfo itself, never from the algorithm the client declares: the
/// documented React Native client declares "ES256" for the RSA key it creates on Android.
public struct DevicePublicKey: Sendable, Hashable {
    /// What kind of key this is.
    public let kind: Kind
    /// The key as a canonical DER SubjectPublicKeyInfo, re-encoded by the cryptographic library.
    public let derRepresentation: [UInt8]
    let verifyingKey: VerifyingKey

    /// The longest PEM document accepted, in bytes: longer than the PEM of an RSA key far above the 8192-bit cap, so
    /// an oversized key still gets its own error.
    public static let maximumPEMLength = 8192
    /// The longest signature text accepted, in bytes: the standard base64 of an RSA-8192 signature.
    public static let maximumSignatureTextLength = (1024 + 2) / 3 * 4

    /// Parses a `PUBLIC KEY` PEM document as the iOS, Android and React Native clients write it.
    public init(pemRepresentation: String) throws(DeviceKeyError) {
        try self.init(derRepresentation: PublicKeyPEM.der(from: pemRepresentation))
    }

    /// Parses a DER SubjectPublicKeyInfo.
    public init(derRepresentation: [UInt8]) throws(DeviceKeyError) {
        let info = try SubjectPublicKeyInfo(derEncoded: derRepresentation)
        switch info.algorithm {
        case .AlgorithmIdentifier.idEcPublicKey: self.init(try Self.p256Key(info))
        case .AlgorithmIdentifier.rsaEncryption: self.init(try Self.rsaKey(info))
        default: throw .unsupportedKeyType
        }
    }

    private init(_ verifyingKey: VerifyingKey) {
        self.verifyingKey = verifyingKey
        kind = verifyingKey.kind
        derRepresentation = verifyingKey.derRepresentation
    }

    /// The key as PEM, wrapped at 64 characters with LF line endings.
    public var pemRepresentation: String { PublicKeyPEM.text(of: derRepresentation) }

    /// The unpadded base64url SHA-256 of the canonical DER: the same for every encoding of one key, so it can serve
    /// as the key's uniqueness constraint.
    public var thumbprint: String {
        StandardBase64.encodeURLSafeUnpadded(Array(SHA256.hash(data: derRepresentation)))
    }

    /// Keys are equal when their canonical DER is.
    public static func == (lhs: DevicePublicKey, rhs: DevicePublicKey) -> Bool {
        lhs.derRepresentation == rhs.derRepresentation
    }

    /// Hashes the canonical DER.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(derRepresentation)
    }

    private static func p256Key(_ info: SubjectPublicKeyInfo) throws(DeviceKeyError) -> VerifyingKey {
        guard info.namedCurve == .NamedCurves.secp256r1 else { throw .unsupportedCurve }
        // Both platforms export the uncompressed form (0x04 ‖ X ‖ Y); nothing else is accepted.
        guard info.subjectPublicKey.count == 65, info.subjectPublicKey.first == 0x04 else {
            throw .ecPointNotUncompressed
        }
        do {
            return .p256(try P256.Signing.PublicKey(x963Representation: info.subjectPublicKey))
        } catch {
            throw .invalidECPoint
        }
    }

    private static func rsaKey(_ info: SubjectPublicKeyInfo) throws(DeviceKeyError) -> VerifyingKey {
        guard info.hasNullParameters else { throw .malformedPublicKey }
        let bits = try RSAModulus(rsaPublicKey: info.subjectPublicKey).bitCount
        guard bits >= 2048 else { throw .rsaKeyTooSmall(bits: bits) }
        guard bits <= 8192 else { throw .rsaKeyTooLarge(bits: bits) }
        do {
            return .rsa(try _RSA.Signing.PublicKey(derRepresentation: info.derEncoded))
        } catch {
            throw .malformedPublicKey
        }
    }
}
