import CBOR
import Crypto
import Foundation
import SwiftASN1
import X509

/// Changes to an attestation object, made by decoding it, editing it and encoding it again.
enum AttestationEditing {
    struct NotAnAttestation: Error {}

    /// `attestation` with its top-level member `key` set to `value`.
    static func setting(_ key: String, to value: CBORValue, in attestation: [UInt8]) throws -> [UInt8] {
        guard case .map(var entries) = try CBORDecoder().decode(attestation) else { throw NotAnAttestation() }
        entries.removeAll { $0.key == .textString(key) }
        entries.append(CBORMapEntry(key: .textString(key), value: value))
        return CBOREncoder().encode(.map(entries))
    }

    /// `attestation` with certificate `index` of its chain replaced by `transform` of it.
    static func editingCertificate(
        _ index: Int, of attestation: [UInt8], _ transform: ([UInt8]) throws -> [UInt8]
    ) throws -> [UInt8] {
        let object = try CBORDecoder().decode(attestation)
        guard case .map(var statement)? = object["attStmt"], var chain = object["attStmt"]?["x5c"]?.array,
            let der = chain[index].bytes
        else {
            throw NotAnAttestation()
        }
        chain[index] = .byteString(try transform(der))
        statement.removeAll { $0.key == .textString("x5c") }
        statement.append(CBORMapEntry(key: .textString("x5c"), value: .array(chain)))
        return try setting("attStmt", to: .map(statement), in: attestation)
    }

    /// `der` re-signed by a throwaway key: a certificate that claims the same names but no CA issued.
    static func selfMade(_ der: [UInt8]) throws -> [UInt8] {
        let original = try Certificate(derEncoded: der)
        let forged = try Certificate(
            version: original.version, serialNumber: original.serialNumber, publicKey: original.publicKey,
            notValidBefore: original.notValidBefore, notValidAfter: original.notValidAfter, issuer: original.issuer,
            subject: original.subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: original.extensions,
            issuerPrivateKey: Certificate.PrivateKey(P256.Signing.PrivateKey()))
        var serializer = DER.Serializer()
        try serializer.serialize(forged)
        return serializer.serializedBytes
    }

    /// `bytes` with the lowest bit of the byte at `index` (negative: from the end) flipped.
    static func flippingBit(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var bytes = bytes
        let position = index < 0 ? bytes.count + index : index
        bytes[position] ^= 0x01
        return bytes
    }
}
