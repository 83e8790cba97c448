import ByteEncoding

/// `android-key` (WebAuthn L3 §8.4): Android Keystore attests the credential key in a certificate whose extension
/// describes the key. Steps are numbered as the bullets of the verification procedure.
struct AndroidKeyAttestation: AttestationFormat {
    static let identifier = "android-key"
    /// KM_ORIGIN_GENERATED: the key was generated inside Keystore.
    static let originGenerated = 0
    /// KM_PURPOSE_SIGN: the key may sign.
    static let purposeSign = 2

    func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        // §8.4 step 1: the statement has alg, sig and x5c.
        guard let algorithmValue = input.statement["alg"]?.int, let signature = input.statement["sig"]?.bytes,
            let algorithm = COSEAlgorithm(rawValue: Int(algorithmValue))
        else {
            throw Self.invalid("attStmt needs a supported alg and a sig")
        }
        try CertificateChain.checkCertificateAlgorithm(algorithm, format: Self.identifier)
        let chain = try CertificateChain.parse(input.statement["x5c"], format: Self.identifier)
        // Step 2: sig is credCert's signature over authenticatorData ‖ clientDataHash with alg.
        guard let key = CertificateChain.key(of: chain[0], for: algorithm),
            key.isValidSignature(signature, for: input.signedData)
        else {
            throw Self.invalid("the signature does not verify with the attestation certificate")
        }
        // Step 3: credCert certifies the credential public key.
        guard CertificateChain.publicKey(of: chain[0], equals: input.credential.publicKey) else {
            throw Self.invalid("the attestation certificate's key is not the credential public key")
        }
        guard let description = AndroidKeyDescription(certificate: chain[0]) else {
            throw Self.invalid("the attestation certificate lacks a readable key description")
        }
        // Step 4: the key was attested for this registration's clientDataHash.
        guard ConstantTime.equals(description.attestationChallenge, input.clientDataHash) else {
            throw Self.invalid("the key description's attestationChallenge is not clientDataHash")
        }
        // Step 5: the authorization lists.
        try checkAuthorizations(description, allowSoftwareEnforced: input.policy.androidKeyAllowsSoftwareEnforced)
        // Step 6: Basic, trust path x5c.
        return AttestationResult(type: .basic, trustPath: chain)
    }

    /// §8.4 step 5: no allApplications in either list, so the key is scoped to the RP ID; then origin
    /// KM_ORIGIN_GENERATED and purpose KM_PURPOSE_SIGN, in teeEnforced only unless the policy allows the union with
    /// softwareEnforced. `purpose` is a SET OF INTEGER; "equal to KM_PURPOSE_SIGN" is read as containing it.
    private func checkAuthorizations(_ description: AndroidKeyDescription, allowSoftwareEnforced: Bool)
        throws(WebAuthnError)
    {
        let tee = description.teeEnforced
        let software = description.softwareEnforced
        guard !tee.allApplications, !software.allApplications else {
            throw Self.invalid("the key is usable by all applications, not scoped to the RP ID")
        }
        let origins = [tee.origin, allowSoftwareEnforced ? software.origin : nil].compactMap { $0 }
        guard !origins.isEmpty, origins.allSatisfy({ $0 == Self.originGenerated }) else {
            throw Self.invalid("the key's origin is not KM_ORIGIN_GENERATED")
        }
        let purposes = allowSoftwareEnforced ? tee.purposes.union(software.purposes) : tee.purposes
        guard purposes.contains(Self.purposeSign) else {
            throw Self.invalid("the key's purpose is not KM_PURPOSE_SIGN")
        }
    }
}
