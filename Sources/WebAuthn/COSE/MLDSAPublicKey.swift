import CBOR
import Crypto

/// An ML-DSA public key (FIPS 204) from a COSE key of type `AKP` (draft-ietf-cose-dilithium): `{1: 7, 3: alg,
/// -1: pub}`. It verifies pure ML-DSA signatures with an empty context, as WebAuthn authenticators make them.
///
/// Held behind a protocol rather than as swift-crypto's key types, because on Apple platforms those come from
/// CryptoKit and exist only from iOS 26 and macOS 26 on.
public struct MLDSAPublicKey: Sendable {
    /// The ML-DSA parameter sets Hale verifies: those swift-crypto implements.
    public enum ParameterSet: Sendable, Hashable {
        /// ML-DSA-65, COSE -49.
        case mlDSA65
        /// ML-DSA-87, COSE -50.
        case mlDSA87

        /// The COSE algorithm.
        public var algorithm: COSEAlgorithm {
            switch self {
            case .mlDSA65: .mlDSA65
            case .mlDSA87: .mlDSA87
            }
        }

        /// The length of an encoded public key (FIPS 204 Table 2).
        public var publicKeyLength: Int {
            switch self {
            case .mlDSA65: 1952
            case .mlDSA87: 2592
            }
        }

        var name: String {
            switch self {
            case .mlDSA65: "ML-DSA-65"
            case .mlDSA87: "ML-DSA-87"
            }
        }
    }

    /// The parameter set.
    public let parameterSet: ParameterSet
    /// The public key in its FIPS 204 encoding, as the COSE key's `pub` carried it.
    public let rawRepresentation: [UInt8]
    private let key: any MLDSAVerifier

    /// The `AKP` key type (draft-ietf-cose-dilithium, IANA COSE Key Types).
    static let keyType: Int64 = 7
    /// ML-DSA-44's COSE algorithm, which swift-crypto does not implement.
    static let mlDSA44: Int64 = -48
    /// The longest `pub` of the parameter sets Hale verifies; COSE keys are decoded with this bound.
    static let maximumPublicKeyLength = 2592

    /// The COSE algorithm.
    public var algorithm: COSEAlgorithm { parameterSet.algorithm }

    /// Reads the `pub` (-1) of an `AKP` COSE key of `parameterSet`; its length is checked before it is parsed.
    init(_ value: CBORValue, _ parameterSet: ParameterSet) throws(WebAuthnError) {
        let name = parameterSet.name
        guard #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) else {
            throw WebAuthnError(.unsupportedAlgorithm, "\(name) needs iOS 26, macOS 26 or later on Apple platforms")
        }
        guard let bytes = value[-1]?.bytes else {
            throw WebAuthnError(.invalidPublicKey, "an \(name) key needs its public key, pub (-1), as a byte string")
        }
        guard bytes.count == parameterSet.publicKeyLength else {
            throw WebAuthnError(
                .invalidPublicKey, "an \(name) public key is \(parameterSet.publicKeyLength) bytes, not \(bytes.count)")
        }
        self.parameterSet = parameterSet
        rawRepresentation = bytes
        key = try Self.key(bytes, parameterSet)
    }

    /// Whether `signature` is a pure ML-DSA signature over `data` with the empty context.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        key.isValidSignature(signature, for: data)
    }

    @available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *)
    private static func key(_ bytes: [UInt8], _ parameterSet: ParameterSet) throws(WebAuthnError)
        -> any MLDSAVerifier
    {
        // Every encoding of the right length is a key (FIPS 204 pkDecode): swift-crypto throws only for a length,
        // which was checked above.
        do {
            switch parameterSet {
            case .mlDSA65: return MLDSA65Verifier(key: try MLDSA65.PublicKey(rawRepresentation: bytes))
            case .mlDSA87: return MLDSA87Verifier(key: try MLDSA87.PublicKey(rawRepresentation: bytes))
            }
        } catch {
            throw WebAuthnError(.invalidPublicKey, "the \(parameterSet.name) public key does not parse")
        }
    }
}

/// One ML-DSA parameter set's public key, verifying with the empty context.
private protocol MLDSAVerifier: Sendable {
    func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool
}

@available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *)
private struct MLDSA65Verifier: MLDSAVerifier {
    let key: MLDSA65.PublicKey

    func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        key.isValidSignature(signature, for: data)
    }
}

@available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *)
private struct MLDSA87Verifier: MLDSAVerifier {
    let key: MLDSA87.PublicKey

    func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        key.isValidSignature(signature, for: data)
    }
}
