import CBOR
import Crypto
import DeviceIntegrity
import Foundation
import SwiftASN1
import X509

extension TestAppAttest {
    /// An `apple-appattest` attestation object of the device key, as this builder's fields say.
    func attestation() throws -> [UInt8] {
        let authData = authenticatorData()
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        let chain =
            [try Self.der(try leaf(nonce: nonce))] + Array(repeating: try Self.der(intermediate), count: intermediates)
        let statement: [CBORMapEntry] = [
            CBORMapEntry(key: .textString("x5c"), value: .array(chain.map { .byteString($0) })),
            CBORMapEntry(key: .textString("receipt"), value: .byteString([0x30, 0x00])),
        ]
        return CBOREncoder().encode(
            .map([
                CBORMapEntry(key: .textString("fmt"), value: .textString("apple-appattest")),
                CBORMapEntry(key: .textString("attStmt"), value: .map(statement)),
                CBORMapEntry(key: .textString("authData"), value: .byteString(authData)),
            ]))
    }

    func authenticatorData() -> [UInt8] {
        let credential = credentialID ?? keyID
        let point = Array(deviceKey.publicKey.x963Representation)
        let coseKey = CBOREncoder().encode(
            .map([
                CBORMapEntry(key: 1, value: 2), CBORMapEntry(key: 3, value: -7), CBORMapEntry(key: -1, value: 1),
                CBORMapEntry(key: -2, value: .byteString(Array(point[1...32]))),
                CBORMapEntry(key: -3, value: .byteString(Array(point[33...64]))),
            ]))
        return app.rpIDHashForTests + [0x40] + Self.bigEndian(counter) + environment.aaguid
            + [UInt8(credential.count >> 8), UInt8(credential.count & 0xFF)] + credential + coseKey
            + unflaggedTrailingBytes
    }

    private func leaf(nonce: [UInt8]) throws -> Certificate {
        let nonceValue: [UInt8] = [0x30, 0x24, 0xA1, 0x22, 0x04, 0x20] + nonce
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: .init(certifiedKey ?? deviceKey.publicKey),
            notValidBefore: Self.referenceTime - 86_400, notValidAfter: Self.referenceTime + 3 * 86_400,
            issuer: intermediate.subject, subject: try DistinguishedName { CommonName("device") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions([
                Certificate.Extension(oid: Self.nonceOID, critical: false, value: nonceValue[...])
            ]),
            issuerPrivateKey: Certificate.PrivateKey(intermediateKey))
    }

    static func caCertificate(
        subject: DistinguishedName, key: P256.Signing.PublicKey, issuer: DistinguishedName,
        issuerKey: P256.Signing.PrivateKey
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key),
            notValidBefore: referenceTime - 365 * 86_400, notValidAfter: referenceTime + 365 * 86_400,
            issuer: issuer, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

extension AppAttestApp {
    /// SHA-256 of the App ID, computed here independently of the library.
    var rpIDHashForTests: [UInt8] { Array(SHA256.hash(data: Array("\(teamID).\(bundleID)".utf8))) }
}
