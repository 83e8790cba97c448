import Crypto
import Foundation
import X509

/// A root and an intermediate App Attest CA made in memory, for a `SoftwareAppAttester` in tests.
struct SelfMadeAuthority {
    let root: Certificate
    let intermediate: Certificate
    let intermediateKey = P256.Signing.PrivateKey()

    init(now: Date = Date()) throws {
        let rootKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("Hale Test App Attestation Root CA") }
        let intermediateName = try DistinguishedName { CommonName("Hale Test App Attestation CA 1") }
        root = try Self.authority(
            rootName, key: rootKey.publicKey, pathLength: nil, issuer: rootName, issuerKey: rootKey, now: now)
        intermediate = try Self.authority(
            intermediateName, key: intermediateKey.publicKey, pathLength: 0, issuer: rootName, issuerKey: rootKey,
            now: now)
    }

    private static func authority(
        _ subject: DistinguishedName, key: P256.Signing.PublicKey, pathLength: Int?, issuer: DistinguishedName,
        issuerKey: P256.Signing.PrivateKey, now: Date
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key),
            notValidBefore: now - 365 * 86_400, notValidAfter: now + 365 * 86_400, issuer: issuer,
            subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }
}
