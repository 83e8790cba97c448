import Crypto
import Foundation
import SwiftASN1
import X509

/// The development App Attest root CA of one installation: a P-256 key and its self-signed root certificate, which
/// certifies short-lived intermediate CAs for the SDK's software attester.
struct DevelopmentAttestationAuthority: Sendable {
    static let commonName = "Hale Development App Attestation Root CA"
    /// Long enough never to lapse under a development installation.
    static let rootLifetime: TimeInterval = 20 * 365 * 86_400
    /// How long an intermediate certificate is valid; a day keeps a leaked one from being of use for long.
    static let intermediateLifetime: TimeInterval = 86_400
    /// How far before issue certificates become valid, for clocks a little behind the server's.
    static let backdating: TimeInterval = 300

    let key: P256.Signing.PrivateKey
    let root: Certificate

    /// A new authority whose root names a random installation id, valid from `now`.
    static func make(at now: Date) throws -> DevelopmentAttestationAuthority {
        let key = P256.Signing.PrivateKey()
        let installation = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        let name = try DistinguishedName {
            CommonName(commonName)
            OrganizationalUnitName("Installation \(installation)")
        }
        let root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now - backdating, notValidAfter: now + rootLifetime, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 1))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        return DevelopmentAttestationAuthority(key: key, root: root)
    }

    init(key: P256.Signing.PrivateKey, root: Certificate) {
        self.key = key
        self.root = root
    }

    /// The authority a stored record holds, its key opened with `sealer`.
    init(record: DevelopmentAuthorityRecord, sealer: SecretSealer?) throws {
        key = try P256.Signing.PrivateKey(
            pemRepresentation: try SealedSecret.open(
                record.privateKeySealed, purpose: DevelopmentAuthorityRecord.purpose, sealer: sealer))
        root = try Certificate(pemEncoded: record.certificatePem)
    }

    /// The record to store, its key sealed with `sealer`.
    func record(at now: Date, sealer: SecretSealer?) throws -> DevelopmentAuthorityRecord {
        DevelopmentAuthorityRecord(
            id: DevelopmentAuthorityRecord.installation,
            privateKeySealed: try SealedSecret.seal(
                key.pemRepresentation, purpose: DevelopmentAuthorityRecord.purpose, sealer: sealer),
            certificatePem: try root.serializeAsPEM().pemString, createdAt: now)
    }

    /// An intermediate CA certificate for `publicKey`, valid for `intermediateLifetime` from `now`, that may issue
    /// credential certificates and nothing below them.
    func intermediate(for publicKey: P256.Signing.PublicKey, at now: Date) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(publicKey),
            notValidBefore: now - Self.backdating, notValidAfter: now + Self.intermediateLifetime,
            issuer: root.subject,
            subject: try DistinguishedName { CommonName("Hale Development App Attestation CA") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
