import ByteEncoding
import CBOR
import SwiftASN1
import X509

/// `tpm` (WebAuthn L3 §8.3): a TPM certifies the credential key with an attestation identity key (AIK) whose
/// certificate an attestation CA issued. Steps are numbered as the bullets of the verification procedure; those
/// under "Validate that certInfo is valid" are 4.1 to 4.9.
struct TPMAttestation: AttestationFormat {
    static let identifier = "tpm"
    /// tcg-kp-AIKCertificate, which the AIK certificate's extended key usage must contain (§8.3.1).
    static let aikCertificateUsage: ASN1ObjectIdentifier = [2, 23, 133, 8, 3]
    /// tcg-at-tpmManufacturer, tcg-at-tpmModel and tcg-at-tpmVersion (TPMv2-EK-Profile §3.2.9).
    static let tpmIdentityAttributes: [ASN1ObjectIdentifier] = [
        [2, 23, 133, 2, 1], [2, 23, 133, 2, 2], [2, 23, 133, 2, 3],
    ]
    /// id-ce-certificatePolicies (RFC 5280 §4.2.1.4).
    static let certificatePolicies: ASN1ObjectIdentifier = [2, 5, 29, 32]

    /// The members of a TPM attestation statement (§8.3, syntax).
    private struct Statement {
        let algorithm: AttestationSignatureAlgorithm
        let signature: [UInt8]
        let certInfo: [UInt8]
        let pubArea: [UInt8]
        let x5c: CBORValue?
    }

    func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        // §8.3 step 1: the statement has the syntax above.
        let statement = try Self.statement(input.statement)
        // Step 2: the key that pubArea's parameters and unique fields describe is the credential public key.
        let publicArea = try TPMPublicArea(bytes: statement.pubArea)
        guard publicArea.matches(input.credential.publicKey) else {
            throw Self.invalid("pubArea describes another key than the credential public key")
        }
        // Step 3: attToBeSigned is authenticatorData ‖ clientDataHash (`input.signedData`).
        // Steps 4.1–4.4: certInfo.
        try checkCertInfo(statement, publicArea: publicArea, attToBeSigned: input.signedData)
        // Step 4.5: x5c is present (step 4.6: qualifiedSigner, clockInfo and firmwareVersion are ignored).
        let chain = try CertificateChain.parse(statement.x5c, format: Self.identifier)
        // Step 4.7: sig is the AIK's signature over certInfo with alg.
        guard statement.algorithm.isValidSignature(statement.signature, for: statement.certInfo, by: chain[0]) else {
            throw Self.invalid("sig does not verify over certInfo with the AIK certificate")
        }
        // Step 4.8: the AIK certificate meets §8.3.1.
        try checkRequirements(of: chain[0])
        // Step 4.9: its AAGUID extension, if any, names the authenticator's AAGUID.
        try CertificateChain.checkAAGUID(of: chain[0], is: input.credential.aaguid, format: Self.identifier)
        // Step 4.10: AttCA, trust path x5c. The SAN and certificate policies that §8.3.1 and RFC 5280 have AIK
        // certificates mark critical were checked above (see FormatVerifiedExtensionsPolicy).
        return AttestationResult(
            type: .attCA, trustPath: chain,
            verifiedCriticalExtensions: [.X509ExtensionID.subjectAlternativeName, Self.certificatePolicies])
    }

    /// §8.3 step 1: ver "2.0", a supported alg, and sig, certInfo and pubArea as byte strings.
    private static func statement(_ value: CBORValue) throws(WebAuthnError) -> Statement {
        guard value["ver"]?.text == "2.0" else { throw invalid("ver must be \"2.0\"") }
        guard let algorithmValue = value["alg"]?.int,
            let algorithm = AttestationSignatureAlgorithm(rawValue: Int(algorithmValue))
        else {
            throw invalid("alg must be RS1, RS256 or ES256")
        }
        guard let signature = value["sig"]?.bytes, let certInfo = value["certInfo"]?.bytes,
            let pubArea = value["pubArea"]?.bytes
        else {
            throw invalid("attStmt needs sig, certInfo and pubArea")
        }
        return Statement(
            algorithm: algorithm, signature: signature, certInfo: certInfo, pubArea: pubArea, x5c: value["x5c"])
    }

    /// §8.3 steps 4.1–4.4: magic, type, extraData, and the certified Name.
    private func checkCertInfo(_ statement: Statement, publicArea: TPMPublicArea, attToBeSigned: [UInt8])
        throws(WebAuthnError)
    {
        let info = try TPMAttestationInfo(bytes: statement.certInfo)
        guard info.magic == TPMAttestationInfo.generatedValue else {
            throw Self.invalid("certInfo.magic is not TPM_GENERATED_VALUE")
        }
        guard info.type == TPMAttestationInfo.attestCertify else {
            throw Self.invalid("certInfo.type is not TPM_ST_ATTEST_CERTIFY")
        }
        guard ConstantTime.equals(info.extraData, statement.algorithm.hash(attToBeSigned)) else {
            throw Self.invalid("certInfo.extraData is not the hash of authenticatorData ‖ clientDataHash")
        }
        // TPMv2-Part1 §16: a key's Name is its nameAlg followed by the nameAlg digest of its public area.
        guard let digest = TPMAlgorithm.hash(publicArea.nameAlg, statement.pubArea) else {
            throw Self.invalid("pubArea.nameAlg is not a supported hash algorithm")
        }
        let name = [UInt8(publicArea.nameAlg >> 8), UInt8(publicArea.nameAlg & 0xFF)] + digest
        guard try info.certifiedName() == name else {
            throw Self.invalid("certInfo.attested does not name pubArea")
        }
    }

    /// §8.3.1: version 3, an empty subject, a SAN naming the TPM, the AIK extended key usage, and not a CA.
    private func checkRequirements(of certificate: Certificate) throws(WebAuthnError) {
        guard certificate.version == .v3 else { throw Self.invalid("the AIK certificate is not version 3") }
        guard certificate.subject.isEmpty else { throw Self.invalid("the AIK certificate's subject is not empty") }
        try checkSubjectAlternativeName(of: certificate)
        guard let usages = try? certificate.extensions.extendedKeyUsage,
            usages.contains(ExtendedKeyUsage.Usage(oid: Self.aikCertificateUsage))
        else {
            throw Self.invalid("the AIK certificate's extended key usage lacks tcg-kp-AIKCertificate")
        }
        try checkBasicConstraints(of: certificate)
    }

    /// §8.3.1: the basic constraints extension is there, and its CA component is false.
    private func checkBasicConstraints(of certificate: Certificate) throws(WebAuthnError) {
        switch try? certificate.extensions.basicConstraints {
        case .notCertificateAuthority: return
        case .isCertificateAuthority: throw Self.invalid("the AIK certificate is a CA")
        case nil: throw Self.invalid("the AIK certificate has no readable basic constraints")
        }
    }

    /// TPMv2-EK-Profile §3.2.9: the SAN is a directoryName with the TPM's manufacturer, model and version.
    private func checkSubjectAlternativeName(of certificate: Certificate) throws(WebAuthnError) {
        guard let names = try? certificate.extensions.subjectAlternativeNames else {
            throw Self.invalid("the AIK certificate has no readable subject alternative name")
        }
        let attributes = names.flatMap { name -> [RelativeDistinguishedName.Attribute] in
            guard case .directoryName(let directory) = name else { return [] }
            return directory.flatMap { $0 }
        }
        for type in Self.tpmIdentityAttributes where !attributes.contains(where: { $0.type == type }) {
            throw Self.invalid("the AIK certificate's subject alternative name lacks the TPM \(type)")
        }
    }
}
