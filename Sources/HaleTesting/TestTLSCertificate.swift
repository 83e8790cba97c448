import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A self-signed TLS server certificate for 127.0.0.1 and localhost, made in code, valid from an hour before now
/// for a day: the root a client under test is told to trust.
public struct TestTLSCertificate: Sendable {
    /// The certificate, PEM: what the client trusts.
    public let certificatePEM: String
    /// Its private key, PEM.
    public let privateKeyPEM: String

    /// A new certificate with a new P-256 key.
    public init(commonName: String = "Hale test server", now: Date = Date()) throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([
                    .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                ])
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        certificatePEM = try certificate.serializeAsPEM().pemString
        privateKeyPEM = key.pemRepresentation
    }

    /// The server side's TLS configuration.
    public func serverConfiguration() throws -> TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)))
    }
}
