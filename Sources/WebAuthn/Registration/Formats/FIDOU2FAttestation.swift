import Crypto

/// `fido-u2f` (WebAuthn L3 §8.6): a U2F security key's attestation certificate signs the registration.
struct FIDOU2FAttestation: AttestationFormat {
    static let identifier = "fido-u2f"

    func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        guard let signature = input.statement["sig"]?.bytes else { throw Self.invalid("attStmt needs a sig") }
        let chain = try CertificateChain.parse(input.statement["x5c"], format: Self.identifier)
        guard chain.count == 1, let key = P256.Signing.PublicKey(chain[0].publicKey) else {
            throw Self.invalid("x5c must hold one certificate with a P-256 key")
        }
        guard case .p256(let credentialKey) = input.credential.publicKey else {
            throw Self.invalid("the credential key must be P-256")
        }
        // §8.6 step 5: 0x00 ‖ rpIdHash ‖ clientDataHash ‖ credentialId ‖ the credential key as an uncompressed point.
        let verificationData =
            [0x00] + input.authenticatorData.rpIDHash + input.clientDataHash + input.credential.credentialID
            + Array(credentialKey.x963Representation)
        guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature),
            key.isValidSignature(parsed, for: verificationData)
        else {
            throw Self.invalid("the signature does not verify with the attestation certificate")
        }
        return AttestationResult(type: .basic, trustPath: chain)
    }
}
