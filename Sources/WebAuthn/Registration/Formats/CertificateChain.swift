import CBOR
import Crypto
import SwiftASN1
import X509
import _CryptoExtras

/// Reading `x5c` certificate chains and verifying signatures with their leaf keys.
enum CertificateChain {
    /// id-fido-gen-ce-aaguid: the AAGUID an attestation certificate may name.
    static let aaguidExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]

    /// The most certificates an `x5c` chain may hold. Real ones hold the attestation certificate and its
    /// intermediates, two to four (Android's key attestation the longest); each is parsed before any is checked.
    static let maximumLength = 5

    /// The certificates of an `x5c` array, leaf first; throws for an empty, overlong or undecodable chain.
    static func parse(_ value: CBORValue?, format: String) throws(WebAuthnError) -> [Certificate] {
        guard let items = value?.array, !items.isEmpty else {
            throw WebAuthnError(.invalidAttestation, "\(format): x5c must be a non-empty array")
        }
        try checkLength(items.count, format: format)
        var certificates: [Certificate] = []
        for item in items {
            guard let der = item.bytes, let certificate = try? Certificate(derEncoded: der) else {
                throw WebAuthnError(.invalidAttestation, "\(format): x5c holds something other than a certificate")
            }
            certificates.append(certificate)
        }
        return certificates
    }

    /// Throws unless a chain of `count` certificates is within `maximumLength`.
    static func checkLength(_ count: Int, format: String) throws(WebAuthnError) {
        guard count <= maximumLength else {
            throw WebAuthnError(.invalidAttestation, "\(format): x5c holds at most \(maximumLength) certificates")
        }
    }

    /// Refuses an attestation signed with ML-DSA by a certificate: swift-certificates cannot read a certificate with
    /// an ML-DSA key, so Hale cannot verify one. Checked before `x5c` is parsed, so the refusal says why.
    static func checkCertificateAlgorithm(_ algorithm: COSEAlgorithm, format: String) throws(WebAuthnError) {
        guard !algorithm.isMLDSA else {
            throw WebAuthnError(
                .unsupportedAttestationFormat,
                "\(format): attestation certificates with ML-DSA keys are not supported")
        }
    }

    /// The certificate's public key as a COSE key of `algorithm`, to verify attestation signatures with.
    static func key(of certificate: Certificate, for algorithm: COSEAlgorithm) -> COSEKey? {
        switch algorithm {
        case .es256: P256.Signing.PublicKey(certificate.publicKey).map(COSEKey.p256)
        case .rs256: _RSA.Signing.PublicKey(certificate.publicKey).map(COSEKey.rsa)
        case .edDSA, .mlDSA65, .mlDSA87: nil
        }
    }

    /// Whether the certificate's subject public key is the credential public key: the same type and the same value.
    static func publicKey(of certificate: Certificate, equals credentialKey: COSEKey) -> Bool {
        switch credentialKey {
        case .p256(let key):
            P256.Signing.PublicKey(certificate.publicKey)?.x963Representation == key.x963Representation
        case .ed25519(let key):
            Curve25519.Signing.PublicKey(certificate.publicKey)?.rawRepresentation == key.rawRepresentation
        case .rsa(let key):
            _RSA.Signing.PublicKey(certificate.publicKey)?.pkcs1DERRepresentation == key.pkcs1DERRepresentation
        case .mlDSA:
            // swift-certificates reads no ML-DSA key, so no certificate it parsed can hold this one.
            false
        }
    }

    /// §8.2.1, §8.3: if the certificate has an id-fido-gen-ce-aaguid extension, it must be non-critical and name
    /// `aaguid`, as an OCTET STRING inside the extension's OCTET STRING.
    static func checkAAGUID(of certificate: Certificate, is aaguid: [UInt8], format: String) throws(WebAuthnError) {
        guard let extensionValue = certificate.extensions[oid: aaguidExtension] else { return }
        guard extensionValue.critical == false,
            let inner = try? ASN1OctetString(derEncoded: extensionValue.value),
            Array(inner.bytes) == aaguid
        else {
            throw WebAuthnError(.invalidAttestation, "\(format): the attestation certificate names another AAGUID")
        }
    }
}
