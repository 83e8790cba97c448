import ByteEncoding
import Crypto
import SwiftASN1
import X509

/// `apple` (WebAuthn L3 §8.8): Apple's anonymization CA certifies the credential key, with a nonce over the
/// registration in the certificate. Steps are numbered as in the verification procedure.
struct AppleAttestation: AttestationFormat {
    static let identifier = "apple"
    /// The extension of credCert that carries the nonce.
    static let nonceExtension = AppleNonceExtension.oid

    func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        // §8.8 step 1: the statement has the syntax above: x5c, credCert first.
        let chain = try CertificateChain.parse(input.statement["x5c"], format: Self.identifier)
        // Steps 2–3: nonce = SHA-256(authenticatorData ‖ clientDataHash).
        let nonce = Array(SHA256.hash(data: input.signedData))
        // Step 4: the nonce extension of credCert holds exactly that nonce.
        guard let certified = AppleNonceExtension.nonce(in: chain[0]), ConstantTime.equals(certified, nonce) else {
            throw Self.invalid("credCert's nonce extension does not hold SHA-256(authenticatorData ‖ clientDataHash)")
        }
        // Step 5: credCert certifies the credential public key.
        guard CertificateChain.publicKey(of: chain[0], equals: input.credential.publicKey) else {
            throw Self.invalid("credCert's subject public key is not the credential public key")
        }
        // Step 6: Anonymization CA, trust path x5c.
        return AttestationResult(type: .anonCA, trustPath: chain)
    }
}
