import SwiftASN1

/// An X.509 SubjectPublicKeyInfo (RFC 5280 §4.1.2.7), split into the parts that decide what key it holds.
struct SubjectPublicKeyInfo {
    /// The DER it was parsed from.
    let derEncoded: [UInt8]
    /// The `algorithm` OID of the AlgorithmIdentifier.
    let algorithm: ASN1ObjectIdentifier
    /// The AlgorithmIdentifier's `parameters`, if present.
    let parameters: ASN1Node?
    /// The `subjectPublicKey` BIT STRING's bytes.
    let subjectPublicKey: ArraySlice<UInt8>

    /// Parses strict DER, with nothing after the outer SEQUENCE.
    init(derEncoded bytes: [UInt8]) throws(DeviceKeyError) {
        derEncoded = bytes
        do {
            (algorithm, parameters, subjectPublicKey) = try DER.sequence(DER.parse(bytes), identifier: .sequence) {
                let (algorithm, parameters) = try Self.algorithmIdentifier(nodes: &$0)
                return (algorithm, parameters, try Self.subjectPublicKey(nodes: &$0))
            }
        } catch {
            throw .malformedPublicKey
        }
    }

    /// The OID of the RFC 5480 `namedCurve` parameter, if the parameters are one.
    var namedCurve: ASN1ObjectIdentifier? {
        parameters.flatMap { try? ASN1ObjectIdentifier(derEncoded: $0) }
    }

    /// Whether the parameters are the NULL that RFC 3279 §2.3.1 requires for `rsaEncryption`.
    var hasNullParameters: Bool {
        parameters.map { (try? ASN1Null(derEncoded: $0)) != nil } ?? false
    }

    private static func algorithmIdentifier(
        nodes: inout ASN1NodeCollection.Iterator
    ) throws -> (ASN1ObjectIdentifier, ASN1Node?) {
        guard let node = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "no AlgorithmIdentifier") }
        return try DER.sequence(node, identifier: .sequence) {
            guard let oid = $0.next() else { throw ASN1Error.invalidASN1Object(reason: "no algorithm") }
            return (try ASN1ObjectIdentifier(derEncoded: oid), $0.next())
        }
    }

    private static func subjectPublicKey(nodes: inout ASN1NodeCollection.Iterator) throws -> ArraySlice<UInt8> {
        guard let node = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "no subjectPublicKey") }
        let bits = try ASN1BitString(derEncoded: node)
        guard bits.paddingBits == 0 else { throw ASN1Error.invalidASN1Object(reason: "partial byte") }
        return bits.bytes
    }
}
