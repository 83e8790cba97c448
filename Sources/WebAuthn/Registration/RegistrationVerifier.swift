import ByteEncoding
import Crypto
import Foundation
@_spi(FixedExpiryValidationTime) import X509

/// Verifies a registration ceremony as WebAuthn Level 3 §7.1 says. Pure: time and trust anchors are parameters.
public struct RegistrationVerifier: Sendable {
    /// The relying party.
    public let relyingParty: RelyingParty
    /// Which attestations are trusted.
    public let policy: AttestationPolicy

    private static let formats: [String: any AttestationFormat] = [
        NoneAttestation.identifier: NoneAttestation(),
        PackedAttestation.identifier: PackedAttestation(),
        FIDOU2FAttestation.identifier: FIDOU2FAttestation(),
        TPMAttestation.identifier: TPMAttestation(),
        AndroidKeyAttestation.identifier: AndroidKeyAttestation(),
        AndroidSafetyNetAttestation.identifier: AndroidSafetyNetAttestation(),
        AppleAttestation.identifier: AppleAttestation(),
    ]

    /// The attestation statement formats this verifier accepts.
    public static var supportedFormats: [String] { formats.keys.sorted() }

    /// A verifier for `relyingParty` under `policy`.
    public init(relyingParty: RelyingParty, policy: AttestationPolicy = .acceptAny) {
        self.relyingParty = relyingParty
        self.policy = policy
    }

    /// Verifies `response` against the challenge the server issued, at time `date` (for certificate validity).
    public func verify(
        _ response: RegistrationResponseJSON, expectedChallenge: [UInt8], requireUserVerification: Bool,
        at date: Date
    ) async throws(WebAuthnError) -> VerifiedRegistration {
        let credentialID = try Base64URL.credentialID(id: response.id, rawId: response.rawId, type: response.type)
        let transports = try Self.transports(of: response)
        let clientDataBytes = try Base64URL.member(response.response.clientDataJSON, "clientDataJSON")
        // §7.1 steps 5–10: the client data.
        try CollectedClientData(bytes: clientDataBytes).verify(
            type: "webauthn.create", challenge: expectedChallenge, origins: relyingParty.origins)
        // Steps 11–12: the hash of the client data, and the attestation object.
        let clientDataHash = Array(SHA256.hash(data: clientDataBytes))
        let object = try AttestationObject(
            bytes: try Base64URL.member(response.response.attestationObject, "attestationObject"))
        let authenticatorData = object.authenticatorData
        // Steps 13–17: RP ID hash, flags.
        try FlagChecks.verify(
            authenticatorData, rpIDHash: relyingParty.idHash, requireUserVerification: requireUserVerification)
        guard let credential = authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.missingCredentialData, "the authenticator data holds no new credential")
        }
        guard credential.credentialID == credentialID else {
            throw WebAuthnError(.invalidCredentialID, "the response's id differs from the attested credential ID")
        }
        // Step 19: the algorithm must be one that was offered.
        guard relyingParty.algorithms.contains(credential.publicKey.algorithm) else {
            throw WebAuthnError(.unsupportedAlgorithm, "the credential's algorithm was not offered")
        }
        // Steps 21–24: the attestation statement, and its trustworthiness.
        guard let format = Self.formats[object.format] else {
            throw WebAuthnError(.unsupportedAttestationFormat, "attestation format \(object.format) is not supported")
        }
        let result = try format.verify(
            AttestationInput(
                statement: object.statement, authenticatorData: authenticatorData, credential: credential,
                clientDataHash: clientDataHash, policy: policy, verificationTime: date))
        let trusted = try await evaluateTrust(result, at: date)
        return VerifiedRegistration(
            credentialID: credentialID, publicKey: credential.publicKeyBytes, algorithm: credential.publicKey.algorithm,
            signCount: authenticatorData.signCount, aaguid: credential.aaguidString, format: object.format,
            attestationType: result.type, attestationTrusted: trusted,
            userVerified: authenticatorData.flags.contains(.userVerified),
            backupEligible: authenticatorData.flags.contains(.backupEligible),
            backupState: authenticatorData.flags.contains(.backupState),
            transports: transports.map(\.rawValue))
    }

    /// The credential record of §7.1 keeps `getTransports()`: its known values, of a list no longer than any real one.
    private static func transports(of response: RegistrationResponseJSON) throws(WebAuthnError)
        -> [AuthenticatorTransport]
    {
        let reported = response.response.transports ?? []
        guard reported.count <= AuthenticatorTransport.maximumReported else {
            throw WebAuthnError(
                .malformedCredential,
                "response.transports lists at most \(AuthenticatorTransport.maximumReported) transports")
        }
        return AuthenticatorTransport.known(in: reported)
    }

    /// §7.1 step 23: a chain is trusted when it validates, at `date`, to one of the policy's anchors.
    private func evaluateTrust(_ result: AttestationResult, at date: Date) async throws(WebAuthnError) -> Bool {
        guard let leaf = result.trustPath.first, !policy.trustAnchors.isEmpty else {
            if policy.requireTrustedAttestation {
                throw WebAuthnError(.untrustedAttestation, "a trusted attestation is required")
            }
            return false
        }
        var verifier = Verifier(rootCertificates: CertificateStore(policy.trustAnchors)) {
            // Attestation certificates expire while their credentials live on: validate at the time given.
            RFC5280Policy(fixedExpiryValidationTime: date)
            FormatVerifiedExtensionsPolicy(verifyingCriticalExtensions: result.verifiedCriticalExtensions)
        }
        let outcome = await verifier.validate(leaf: leaf, intermediates: CertificateStore(result.trustPath.dropFirst()))
        if case .validCertificate = outcome { return true }
        if policy.requireTrustedAttestation {
            throw WebAuthnError(.untrustedAttestation, "the attestation chain does not lead to a trusted root")
        }
        return false
    }
}

/// The authenticator-data checks registration and authentication share (§7.1 steps 13–17, §7.2 steps 15–18).
enum FlagChecks {
    static func verify(_ data: AuthenticatorData, rpIDHash: [UInt8], requireUserVerification: Bool)
        throws(WebAuthnError)
    {
        guard ConstantTime.equals(data.rpIDHash, rpIDHash) else {
            throw WebAuthnError(.rpIDHashMismatch, "the authenticator data is for another relying party")
        }
        guard data.flags.contains(.userPresent) else {
            throw WebAuthnError(.userNotPresent, "the user-present flag is not set")
        }
        if requireUserVerification && !data.flags.contains(.userVerified) {
            throw WebAuthnError(.userNotVerified, "user verification is required")
        }
        if data.flags.contains(.backupState) && !data.flags.contains(.backupEligible) {
            throw WebAuthnError(.invalidBackupFlags, "a credential that is not backup-eligible cannot be backed up")
        }
    }
}
