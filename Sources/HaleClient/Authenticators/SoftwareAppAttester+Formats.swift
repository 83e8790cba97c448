import CBOR
import Crypto
import Foundation
import SwiftASN1
import X509

extension SoftwareAppAttester {
    /// Apple's extension that certifies nonce = SHA-256(authData ‖ clientDataHash) in a credential certificate.
    static let nonceOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 2]

    /// An `apple-appattest` attestation object for `key`: x5c is a fresh credential certificate and the
    /// intermediate; the counter is 0.
    package func attestationObject(for key: P256.Signing.PrivateKey, clientDataHash: [UInt8]) throws -> [UInt8] {
        let authData = authenticatorData(counter: 0, attesting: key.publicKey)
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        let chain = [
            try Self.der(try credentialCertificate(for: key.publicKey, nonce: nonce)), try Self.der(intermediate),
        ]
        return CBOREncoder().encode(
            .map([
                CBORMapEntry(key: .textString("fmt"), value: .textString("apple-appattest")),
                CBORMapEntry(
                    key: .textString("attStmt"),
                    value: .map([
                        CBORMapEntry(key: .textString("x5c"), value: .array(chain.map { .byteString($0) })),
                        // A receipt is Apple's to sign; an empty SEQUENCE stands in for it.
                        CBORMapEntry(key: .textString("receipt"), value: .byteString([0x30, 0x00])),
                    ])),
                CBORMapEntry(key: .textString("authData"), value: .byteString(authData)),
            ]))
    }

    /// An assertion by `key` with `counter`: the signature is over SHA-256(authenticatorData ‖ clientDataHash).
    package func assertionObject(by key: P256.Signing.PrivateKey, clientDataHash: [UInt8], counter: UInt32) throws
        -> [UInt8]
    {
        let authData = authenticatorData(counter: counter, attesting: nil)
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        let signature = try key.signature(for: nonce).derRepresentation
        return CBOREncoder().encode(
            .map([
                CBORMapEntry(key: .textString("signature"), value: .byteString(Array(signature))),
                CBORMapEntry(key: .textString("authenticatorData"), value: .byteString(authData)),
            ]))
    }

    /// rpIdHash, flags, counter and, when attesting, the AAGUID, the key id as credential id and the COSE key.
    private func authenticatorData(counter: UInt32, attesting key: P256.Signing.PublicKey?) -> [UInt8] {
        let rpIDHash = Array(SHA256.hash(data: Array(appID.utf8)))
        let counterBytes = [
            UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF),
        ]
        guard let key else { return rpIDHash + [0x00] + counterBytes }
        let point = Array(key.x963Representation)
        let coseKey = CBOREncoder().encode(
            .map([
                CBORMapEntry(key: 1, value: 2), CBORMapEntry(key: 3, value: -7), CBORMapEntry(key: -1, value: 1),
                CBORMapEntry(key: -2, value: .byteString(Array(point[1...32]))),
                CBORMapEntry(key: -3, value: .byteString(Array(point[33...64]))),
            ]))
        let keyID = Array(SHA256.hash(data: point))
        return rpIDHash + [0x40] + counterBytes + environment.aaguid + [0x00, 0x20] + keyID + coseKey
    }

    /// The credential certificate for `key`, valid as long as the intermediate, with the nonce extension.
    private func credentialCertificate(for key: P256.Signing.PublicKey, nonce: [UInt8]) throws -> Certificate {
        // SEQUENCE { [1] EXPLICIT OCTET STRING nonce }, as Apple encodes it.
        let nonceValue: [UInt8] = [0x30, 0x24, 0xA1, 0x22, 0x04, 0x20] + nonce
        let keyID = SHA256.hash(data: key.x963Representation).map { String(format: "%02x", $0) }.joined()
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key),
            notValidBefore: intermediate.notValidBefore, notValidAfter: intermediate.notValidAfter,
            issuer: intermediate.subject, subject: try DistinguishedName { CommonName(keyID) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions([
                Certificate.Extension(oid: Self.nonceOID, critical: false, value: nonceValue[...])
            ]),
            issuerPrivateKey: Certificate.PrivateKey(intermediateKey))
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
