import Crypto

/// How a mobile client signs a server challenge with its device key. Mirrors the conventions the server accepts.
public enum DeviceSigningConvention: Sendable, Hashable, CaseIterable {
    /// ECDSA P-256 with SHA-256 over the challenge's UTF-8 bytes, as Android's `SHA256withECDSA` and
    /// `react-native-biometrics` on iOS sign.
    case android
    /// ECDSA P-256 with SHA-256 over the SHA-256 digest of the challenge, as the native iOS client signs: it hashes
    /// the challenge, then passes the digest to `SecKeyCreateSignature` with `ecdsaSignatureMessageX962SHA256`,
    /// which hashes again.
    case iOS
}

extension DeviceSigningConvention {
    /// The bytes that ECDSA with SHA-256 signs for `challenge`: its UTF-8, or for iOS the SHA-256 of its UTF-8.
    public func message(for challenge: String) -> [UInt8] {
        let bytes = Array(challenge.utf8)
        return switch self {
        case .android: bytes
        case .iOS: Array(SHA256.hash(data: bytes))
        }
    }
}
