import SwiftASN1

/// Builds SubjectPublicKeyInfo DER that no well-behaved library would produce.
enum SPKIBuilder {
    /// An `rsaEncryption` SPKI whose modulus is `bitCount` bits long (its top bit set) with `exponent` (65537),
    /// its algorithm's parameters NULL as RFC 3279 requires, or absent.
    static func rsa(
        modulusBits bitCount: Int, exponent: [UInt8] = [0x01, 0x00, 0x01], nullParameters: Bool = true
    ) throws -> [UInt8] {
        let modulus = [UInt8(1 << ((bitCount - 1) % 8))] + [UInt8](repeating: 0xA5, count: (bitCount - 1) / 8)
        var rsaPublicKey = DER.Serializer()
        try rsaPublicKey.appendConstructedNode(identifier: .sequence) {
            try $0.serialize(modulus[...])
            try $0.serialize(exponent[...])
        }
        return try spki(
            algorithm: .AlgorithmIdentifier.rsaEncryption, parameters: nullParameters ? ASN1Null() : nil,
            key: rsaPublicKey.serializedBytes)
    }

    /// An `id-ecPublicKey` SPKI on P-256 with `point` as its subjectPublicKey.
    static func p256(point: [UInt8]) throws -> [UInt8] {
        try spki(
            algorithm: .AlgorithmIdentifier.idEcPublicKey, parameters: ASN1ObjectIdentifier.NamedCurves.secp256r1,
            key: point)
    }

    private static func spki(
        algorithm: ASN1ObjectIdentifier, parameters: (any DERSerializable)?, key: [UInt8]
    ) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) {
            try $0.appendConstructedNode(identifier: .sequence) {
                try $0.serialize(algorithm)
                if let parameters { try $0.serialize(parameters) }
            }
            try $0.serialize(ASN1BitString(bytes: key[...]))
        }
        return serializer.serializedBytes
    }
}
