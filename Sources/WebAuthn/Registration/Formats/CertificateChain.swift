import CBOR
import Crypto
import X509
import _CryptoExtras

/// Reading `x5c` certificate chains and verifying signatures with their leaf keys.
enum CertificateChain {
    /// The certificates of an `x5c` array, leaf first; throws for an empty or undecodable chain.
    static func parse(_ value: CBORValue?, format: String) throws(WebAuthnError) -> [Certificate] {
        guard let items = value?.array, !items.isEmpty else {
            throw WebAuthnError(.invalidAttestation, "\(format): x5c must be a non-empty array")
        }
        var certificates: [Certificate] = []
        for item in items {
            guard let der = item.bytes, let certificate = try? Certificate(derEncoded: der) else {
                throw WebAuthnError(.invalidAttestation, "\(format): x5c holds something other than a certificate")
            }
            certificates.append(certificate)
        }
        return certificates
    }

    /// The certificate's public key as a COSE key of `algorithm`, to verify attestation signatures with.
    static func key(of certificate: Certificate, for algorithm: COSEAlgorithm) -> COSEKey? {
        switch algorithm {
        case .es256: P256.Signing.PublicKey(certificate.publicKey).map(COSEKey.p256)
        case .rs256: _RSA.Signing.PublicKey(certificate.publicKey).map(COSEKey.rsa)
        case .edDSA: nil
        }
    }
}
