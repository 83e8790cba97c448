/// The COSE signature algorithms Hale accepts for credentials (IANA COSE Algorithms registry).
///
/// ML-DSA-44 (-48) is not among them: swift-crypto implements only ML-DSA-65 and ML-DSA-87, so a credential of
/// ML-DSA-44 is refused as `UNSUPPORTED_ALGORITHM`.
public enum COSEAlgorithm: Int, Sendable, Hashable, Codable, CaseIterable {
    /// ECDSA with P-256 and SHA-256.
    case es256 = -7
    /// EdDSA with Ed25519.
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
    /// ML-DSA-65 (FIPS 204), a post-quantum signature, with an `AKP` key (draft-ietf-cose-dilithium).
    case mlDSA65 = -49
    /// ML-DSA-87 (FIPS 204), a post-quantum signature, with an `AKP` key (draft-ietf-cose-dilithium).
    case mlDSA87 = -50

    /// What a relying party offers unless told otherwise, most preferred first: the classical algorithms every
    /// authenticator knows, ES256 first, then ML-DSA-65 and ML-DSA-87 where this platform can verify them.
    public static var defaultOffered: [COSEAlgorithm] {
        [.es256, .edDSA, .rs256, .mlDSA65, .mlDSA87].filter(\.isAvailable)
    }

    /// Whether this platform can verify the algorithm. ML-DSA needs swift-crypto's BoringSSL backend (Linux, and
    /// every platform but Apple's) or CryptoKit of iOS 26, macOS 26 and their siblings.
    public var isAvailable: Bool {
        switch self {
        case .es256, .edDSA, .rs256:
            return true
        case .mlDSA65, .mlDSA87:
            if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) { return true }
            return false
        }
    }

    /// Whether the algorithm is ML-DSA.
    var isMLDSA: Bool { self == .mlDSA65 || self == .mlDSA87 }
}
