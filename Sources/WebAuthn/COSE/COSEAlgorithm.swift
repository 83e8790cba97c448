/// The COSE signature algorithms Hale accepts for credentials (IANA COSE Algorithms registry).
public enum COSEAlgorithm: Int, Sendable, Hashable, Codable, CaseIterable {
    /// ECDSA with P-256 and SHA-256.
    case es256 = -7
    /// EdDSA with Ed25519.
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
}
