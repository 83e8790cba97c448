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
