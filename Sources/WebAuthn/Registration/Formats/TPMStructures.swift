import Crypto
import _CryptoExtras

/// Reads the big-endian integers and TPM2B sized buffers of TPM 2.0 structures (TPM 2.0 Part 2).
struct TPMReader {
    private let bytes: [UInt8]
    private let structure: String
    private var offset = 0

    /// A reader over `bytes`, which hold the structure named `structure` (for error messages).
    init(_ bytes: [UInt8], structure: String) {
        self.bytes = bytes
        self.structure = structure
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset == bytes.count }

    /// The next `count` bytes.
    mutating func read(_ count: Int) throws(WebAuthnError) -> [UInt8] {
        guard count <= bytes.count - offset else {
            throw WebAuthnError(.invalidAttestation, "tpm: \(structure) is truncated")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A big-endian UINT16.
    mutating func uint16() throws(WebAuthnError) -> UInt16 {
        try read(2).reduce(0) { $0 << 8 | UInt16($1) }
    }

    /// A big-endian UINT32.
    mutating func uint32() throws(WebAuthnError) -> UInt32 {
        try read(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A TPM2B structure: a UINT16 size, then that many bytes.
    mutating func sized() throws(WebAuthnError) -> [UInt8] {
        try read(Int(try uint16()))
    }

    /// Every byte not read yet.
    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    /// Fails unless every byte has been read.
    func finish() throws(WebAuthnError) {
        guard isAtEnd else { throw WebAuthnError(.invalidAttestation, "tpm: \(structure) has trailing bytes") }
    }
}

/// TPM_ALG_ID values (TPM 2.0 Part 2 §6.3) that the structures below use.
enum TPMAlgorithm {
    static let rsa: UInt16 = 0x0001
    static let sha1: UInt16 = 0x0004
    static let sha256: UInt16 = 0x000B
    static let sha384: UInt16 = 0x000C
    static let sha512: UInt16 = 0x000D
    static let null: UInt16 = 0x0010
    static let rsaes: UInt16 = 0x0015
    static let ecdaa: UInt16 = 0x001A
    static let ecc: UInt16 = 0x0023
    /// TPM_ECC_NIST_P256 (TPM_ECC_CURVE, Part 2 §6.4).
    static let curveNISTP256: UInt16 = 0x0003

    /// The digest of `data` under the hash algorithm `identifier`, or `nil` for another algorithm.
    static func hash(_ identifier: UInt16, _ data: [UInt8]) -> [UInt8]? {
        switch identifier {
        case sha1: Array(Insecure.SHA1.hash(data: data))
        case sha256: Array(SHA256.hash(data: data))
        case sha384: Array(SHA384.hash(data: data))
        case sha512: Array(SHA512.hash(data: data))
        default: nil
        }
    }
}

/// TPMT_PUBLIC (TPM 2.0 Part 2 §12.2.4): the public area the TPM holds for the credential key.
struct TPMPublicArea {
    /// The key that `parameters` and `unique` describe.
    enum Key {
        /// An RSA key: the modulus and the exponent (0 meaning the default, 65537).
        case rsa(modulus: [UInt8], exponent: UInt32)
        /// An ECC key: the TPM curve identifier and the point.
        case ecc(curve: UInt16, x: [UInt8], y: [UInt8])
    }

    /// The hash algorithm of the key's Name.
    let nameAlg: UInt16
    /// The public key.
    let key: Key

    /// Parses the whole of `bytes`.
    init(bytes: [UInt8]) throws(WebAuthnError) {
        var reader = TPMReader(bytes, structure: "pubArea")
        let type = try reader.uint16()
        nameAlg = try reader.uint16()
        _ = try reader.uint32()  // objectAttributes
        _ = try reader.sized()  // authPolicy
        switch type {
        case TPMAlgorithm.rsa:
            key = try Self.rsa(&reader)
        case TPMAlgorithm.ecc:
            key = try Self.ecc(&reader)
        default:
            throw WebAuthnError(.invalidAttestation, "tpm: pubArea holds neither an RSA nor an ECC key")
        }
        try reader.finish()
    }

    /// TPMS_RSA_PARMS then TPM2B_PUBLIC_KEY_RSA.
    private static func rsa(_ reader: inout TPMReader) throws(WebAuthnError) -> Key {
        try skipSymmetric(&reader)
        try skipScheme(&reader)
        _ = try reader.uint16()  // keyBits
        let exponent = try reader.uint32()
        return .rsa(modulus: try reader.sized(), exponent: exponent)
    }

    /// TPMS_ECC_PARMS then TPMS_ECC_POINT.
    private static func ecc(_ reader: inout TPMReader) throws(WebAuthnError) -> Key {
        try skipSymmetric(&reader)
        try skipScheme(&reader)
        let curve = try reader.uint16()
        try skipScheme(&reader)  // kdf: a TPMT_KDF_SCHEME has the same shape
        return .ecc(curve: curve, x: try reader.sized(), y: try reader.sized())
    }

    /// TPMT_SYM_DEF_OBJECT: an algorithm, then key bits and mode unless it is TPM_ALG_NULL.
    private static func skipSymmetric(_ reader: inout TPMReader) throws(WebAuthnError) {
        if try reader.uint16() != TPMAlgorithm.null {
            _ = try reader.read(4)
        }
    }

    /// TPMT_RSA_SCHEME, TPMT_ECC_SCHEME or TPMT_KDF_SCHEME: a scheme, then its details, which are a hash algorithm
    /// except for TPM_ALG_NULL and RSAES (none) and ECDAA (a hash algorithm and a count).
    private static func skipScheme(_ reader: inout TPMReader) throws(WebAuthnError) {
        switch try reader.uint16() {
        case TPMAlgorithm.null, TPMAlgorithm.rsaes: break
        case TPMAlgorithm.ecdaa: _ = try reader.read(4)
        default: _ = try reader.read(2)
        }
    }

    /// Whether this is the same public key as `credentialKey`.
    func matches(_ credentialKey: COSEKey) -> Bool {
        switch (key, credentialKey) {
        case (.rsa(let modulus, let exponent), .rsa(let credential)):
            let exponentBytes = Self.bigEndian(exponent == 0 ? 65_537 : exponent)
            guard let key = try? _RSA.Signing.PublicKey(n: modulus, e: exponentBytes) else { return false }
            return key.pkcs1DERRepresentation == credential.pkcs1DERRepresentation
        case (.ecc(let curve, let x, let y), .p256(let credential)):
            guard curve == TPMAlgorithm.curveNISTP256, x.count <= 32, y.count <= 32 else { return false }
            let point = [0x04] + Self.leftPadded(x, to: 32) + Self.leftPadded(y, to: 32)
            return Array(credential.x963Representation) == point
        default:
            return false
        }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        Array(withUnsafeBytes(of: value.bigEndian) { Array($0) }.drop { $0 == 0 })
    }

    private static func leftPadded(_ bytes: [UInt8], to length: Int) -> [UInt8] {
        [UInt8](repeating: 0, count: length - bytes.count) + bytes
    }
}

/// TPMS_ATTEST (TPM 2.0 Part 2 §10.12.12): what the TPM signed.
struct TPMAttestationInfo {
    /// TPM_GENERATED_VALUE: the TPM made this structure.
    static let generatedValue: UInt32 = 0xFF54_4347
    /// TPM_ST_ATTEST_CERTIFY: the structure certifies a key.
    static let attestCertify: UInt16 = 0x8017

    /// `magic`.
    let magic: UInt32
    /// `type`.
    let type: UInt16
    /// `extraData`: what the caller asked the TPM to sign along.
    let extraData: [UInt8]
    /// `attested`, still encoded: its structure depends on `type`.
    let attested: [UInt8]

    /// Parses the whole of `bytes`; `qualifiedSigner`, `clockInfo` and `firmwareVersion` are skipped (§8.3).
    init(bytes: [UInt8]) throws(WebAuthnError) {
        var reader = TPMReader(bytes, structure: "certInfo")
        magic = try reader.uint32()
        type = try reader.uint16()
        _ = try reader.sized()  // qualifiedSigner
        extraData = try reader.sized()
        _ = try reader.read(17 + 8)  // clockInfo (TPMS_CLOCK_INFO), firmwareVersion
        attested = reader.rest()
    }

    /// The `name` of the TPMS_CERTIFY_INFO in `attested` (Part 2 §10.12.3), which also holds `qualifiedName`.
    func certifiedName() throws(WebAuthnError) -> [UInt8] {
        var reader = TPMReader(attested, structure: "certInfo.attested")
        let name = try reader.sized()
        _ = try reader.sized()  // qualifiedName
        try reader.finish()
        return name
    }
}
