import X509

/// `packed` (WebAuthn L3 §8.2): self attestation, or a signature by an attestation certificate (`x5c`).
struct PackedAttestation: AttestationFormat {
    static let identifier = "packed"

    func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        guard let algorithmValue = input.statement["alg"]?.int, let signature = input.statement["sig"]?.bytes,
            let algorithm = COSEAlgorithm(rawValue: Int(algorithmValue))
        else {
            throw Self.invalid("attStmt needs a supported alg and a sig")
        }
        guard input.statement["x5c"] != nil else {
            // §8.2 step 4: self attestation signs with the credential key, whose algorithm must match.
            guard algorithm == input.credential.publicKey.algorithm else {
                throw Self.invalid("alg differs from the credential's algorithm")
            }
            guard input.credential.publicKey.isValidSignature(signature, for: input.signedData) else {
                throw Self.invalid("the self-attestation signature does not verify")
            }
            return AttestationResult(type: .self, trustPath: [])
        }
        try CertificateChain.checkCertificateAlgorithm(algorithm, format: Self.identifier)
        let chain = try CertificateChain.parse(input.statement["x5c"], format: Self.identifier)
        guard let key = CertificateChain.key(of: chain[0], for: algorithm),
            key.isValidSignature(signature, for: input.signedData)
        else {
            throw Self.invalid("the signature does not verify with the attestation certificate")
        }
        try checkRequirements(of: chain[0], aaguid: input.credential.aaguid)
        return AttestationResult(type: .basic, trustPath: chain)
    }

    /// §8.2.1: version 3, OU "Authenticator Attestation", not a CA, and the AAGUID extension (if any) matching.
    private func checkRequirements(of certificate: Certificate, aaguid: [UInt8]) throws(WebAuthnError) {
        guard certificate.version == .v3 else { throw Self.invalid("the attestation certificate is not version 3") }
        let units = certificate.subject.flatMap { $0 }.filter { $0.type == .RDNAttributeType.organizationalUnitName }
        guard units.contains(where: { "\($0.value)" == "Authenticator Attestation" }) else {
            throw Self.invalid("the attestation certificate's OU is not \"Authenticator Attestation\"")
        }
        let constraints: BasicConstraints?
        do {
            constraints = try certificate.extensions.basicConstraints
        } catch {
            throw Self.invalid("the attestation certificate has no readable basic constraints")
        }
        if case .isCertificateAuthority = constraints {
            throw Self.invalid("the attestation certificate is a CA")
        }
        try CertificateChain.checkAAGUID(of: certificate, is: aaguid, format: Self.identifier)
    }
}
