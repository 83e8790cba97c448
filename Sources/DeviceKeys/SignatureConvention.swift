/// How a client turned the server's challenge into the bytes it signed. The server records it with the device key.
public enum SignatureConvention: String, Sendable, Hashable, CaseIterable {
    /// ECDSA P-256 with SHA-256 over the challenge's UTF-8 bytes, DER-encoded: Android's
    /// `Signature.getInstance("SHA256withECDSA")`, and `react-native-biometrics` on iOS
    /// (`ecdsaSignatureMessageX962SHA256` over the payload).
    case ecdsaSHA256 = "ECDSA_SHA256"
    /// ECDSA P-256 with SHA-256 over the 32-byte SHA-256 digest of the challenge, DER-encoded: the native iOS client,
    /// which hashes the challenge and then signs the digest with `ecdsaSignatureMessageX962SHA256`.
    case ecdsaSHA256OfSHA256Digest = "ECDSA_SHA256_OF_SHA256_DIGEST"
    /// RSA PKCS#1 v1.5 with SHA-256 over the challenge's UTF-8 bytes: `react-native-biometrics` on Android.
    case rsaPKCS1v15SHA256 = "RSA_PKCS1V15_SHA256"
}
