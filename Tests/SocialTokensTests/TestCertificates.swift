import Crypto
import Foundation
import X509
import _CryptoExtras

/// X.509 certificates as Google publishes its securetoken keys: self-signed, RSA, made in code relative to the
/// test clock's reference time.
enum TestCertificates {
    /// `TestKeys.rsa`'s certificate.
    static let rsa = pem(for: TestKeys.rsa)
    /// The certificate of a key that signs nothing here.
    static let otherRSA = pem(for: TestKeys.otherRSA)

    /// A self-signed certificate of `key`, valid from a day before the reference time for two weeks, as Google's are.
    static func pem(for key: _RSA.Signing.PrivateKey) -> String {
        let name = try! DistinguishedName { CommonName("securetoken.system.gserviceaccount.com") }
        let certificate = try! Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: TestClock.reference.addingTimeInterval(-86_400),
            notValidAfter: TestClock.reference.addingTimeInterval(13 * 86_400), issuer: name, subject: name,
            signatureAlgorithm: .sha256WithRSAEncryption, extensions: Certificate.Extensions(),
            issuerPrivateKey: Certificate.PrivateKey(key))
        return try! certificate.serializeAsPEM().pemString
    }

    /// A certificate of a P-256 key: a member Firebase's verifier has no use for.
    static let p256 = {
        let key = P256.Signing.PrivateKey()
        let name = try! DistinguishedName { CommonName("not securetoken") }
        let certificate = try! Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: TestClock.reference.addingTimeInterval(-86_400),
            notValidAfter: TestClock.reference.addingTimeInterval(86_400), issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: Certificate.Extensions(),
            issuerPrivateKey: Certificate.PrivateKey(key))
        return try! certificate.serializeAsPEM().pemString
    }()
}
