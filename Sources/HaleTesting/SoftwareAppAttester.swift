import CBOR
import Crypto
import Foundation
import SwiftASN1
import X509

/// An App Attest device in software, for tests: its own CA (root and intermediate, for the server's
/// `appAttest.rootCertificate`), a device key, and attestations and assertions in Apple's formats.
public final class SoftwareAppAttester: Sendable {
    /// The team id of the app.
    public let teamID: String
    /// The bundle id of the app.
    public let bundleID: String
    let rootKey = P256.Signing.PrivateKey()
    let intermediateKey = P256.Signing.PrivateKey()
    let deviceKey = P256.Signing.PrivateKey()
    let root: Certificate
    let intermediate: Certificate
    static let nonceOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 2]
    /// `appattestdevelop`: the development environment's AAGUID.
    static let developmentAAGUID = Array("appattestdevelop".utf8)

    /// A device of the app `teamID.bundleID`, attesting in the development environment.
    public init(teamID: String = "TEAM123456", bundleID: String = "com.example.health") throws {
        self.teamID = teamID
        self.bundleID = bundleID
        let rootName = try DistinguishedName { CommonName("Hale Test App Attestation Root CA") }
        let intermediateName = try DistinguishedName { CommonName("Hale Test App Attestation CA 1") }
        root = try Self.authority(rootName, key: rootKey.publicKey, issuer: rootName, issuerKey: rootKey)
        intermediate = try Self.authority(
            intermediateName, key: intermediateKey.publicKey, issuer: rootName, issuerKey: rootKey)
    }

    /// The root certificate, PEM.
    public var rootPEM: String { get throws { try root.serializeAsPEM().pemString } }
    /// The device key's public half, PEM.
    public var publicKeyPEM: String { deviceKey.publicKey.pemRepresentation }
    /// `TEAMID.bundle.id`.
    public var appID: String { "\(teamID).\(bundleID)" }
    /// The key id, as `DCAppAttestService` reports it: SHA-256 of the public key.
    public var keyID: [UInt8] { Array(SHA256.hash(data: deviceKey.publicKey.x963Representation)) }

    /// `attestKey(_:clientDataHash:)`: an attestation object for SHA-256 of `challenge`'s UTF-8.
    public func attestation(challenge: String) throws -> [UInt8] {
        let authData = authenticatorData(counter: 0, attested: true)
        let nonce = Array(SHA256.hash(data: authData + Self.hash(challenge)))
        let chain = [try Self.der(try leaf(nonce: nonce)), try Self.der(intermediate)]
        return CBOREncoder().encode(
            .map([
                CBORMapEntry(key: .textString("fmt"), value: .textString("apple-appattest")),
                CBORMapEntry(
                    key: .textString("attStmt"),
                    value: .map([
                        CBORMapEntry(key: .textString("x5c"), value: .array(chain.map { .byteString($0) })),
                        CBORMapEntry(key: .textString("receipt"), value: .byteString([0x30, 0x00])),
                    ])),
                CBORMapEntry(key: .textString("authData"), value: .byteString(authData)),
            ]))
    }

    /// `generateAssertion(_:clientDataHash:)`: an assertion with `counter` for SHA-256 of `challenge`'s UTF-8.
    public func assertion(challenge: String, counter: UInt32) throws -> [UInt8] {
        let authData = authenticatorData(counter: counter, attested: false)
        let nonce = Array(SHA256.hash(data: authData + Self.hash(challenge)))
        let signature = try deviceKey.signature(for: nonce).derRepresentation
        return CBOREncoder().encode(
            .map([
                CBORMapEntry(key: .textString("signature"), value: .byteString(Array(signature))),
                CBORMapEntry(key: .textString("authenticatorData"), value: .byteString(authData)),
            ]))
    }

    private func authenticatorData(counter: UInt32, attested: Bool) -> [UInt8] {
        let rpIDHash = Array(SHA256.hash(data: Array(appID.utf8)))
        let counterBytes = [
            UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF),
        ]
        guard attested else { return rpIDHash + [0x00] + counterBytes }
        let point = Array(deviceKey.publicKey.x963Representation)
        let coseKey = CBOREncoder().encode(
            .map([
                CBORMapEntry(key: 1, value: 2), CBORMapEntry(key: 3, value: -7), CBORMapEntry(key: -1, value: 1),
                CBORMapEntry(key: -2, value: .byteString(Array(point[1...32]))),
                CBORMapEntry(key: -3, value: .byteString(Array(point[33...64]))),
            ]))
        return rpIDHash + [0x40] + counterBytes + Self.developmentAAGUID + [0x00, 0x20] + keyID + coseKey
    }

    private func leaf(nonce: [UInt8]) throws -> Certificate {
        let nonceValue: [UInt8] = [0x30, 0x24, 0xA1, 0x22, 0x04, 0x20] + nonce
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(deviceKey.publicKey),
            notValidBefore: Date() - 86_400, notValidAfter: Date() + 3 * 86_400, issuer: intermediate.subject,
            subject: try DistinguishedName { CommonName(Data(keyID).base64EncodedString()) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions([
                Certificate.Extension(oid: Self.nonceOID, critical: false, value: nonceValue[...])
            ]),
            issuerPrivateKey: Certificate.PrivateKey(intermediateKey))
    }

    private static func authority(
        _ subject: DistinguishedName, key: P256.Signing.PublicKey, issuer: DistinguishedName,
        issuerKey: P256.Signing.PrivateKey
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key),
            notValidBefore: Date() - 365 * 86_400, notValidAfter: Date() + 365 * 86_400, issuer: issuer,
            subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }

    private static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    private static func hash(_ challenge: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(challenge.utf8)))
    }
}
