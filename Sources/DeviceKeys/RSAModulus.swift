import SwiftASN1

/// The modulus of a PKCS#1 `RSAPublicKey` (RFC 8017 §A.1.1), read before any cryptographic library sees the key, so
/// that the cost of an oversized key is refused up front.
struct RSAModulus {
    /// The modulus length in bits.
    let bitCount: Int

    /// Parses a DER `RSAPublicKey` with a positive modulus and a positive public exponent.
    init(rsaPublicKey bytes: ArraySlice<UInt8>) throws(DeviceKeyError) {
        do {
            bitCount = try DER.sequence(DER.parse(bytes), identifier: .sequence) {
                guard let modulusNode = $0.next(), let exponentNode = $0.next() else {
                    throw ASN1Error.invalidASN1Object(reason: "RSAPublicKey needs a modulus and an exponent")
                }
                let modulus = try ArraySlice<UInt8>(derEncoded: modulusNode)
                let exponent = try ArraySlice<UInt8>(derEncoded: exponentNode)
                // Unsigned DER integers arrive without their sign byte: a nonzero value is never empty.
                guard let top = modulus.first, !exponent.isEmpty else {
                    throw ASN1Error.invalidASN1Object(reason: "modulus and exponent must be positive")
                }
                return modulus.count * 8 - top.leadingZeroBitCount
            }
        } catch {
            throw .malformedPublicKey
        }
    }
}
