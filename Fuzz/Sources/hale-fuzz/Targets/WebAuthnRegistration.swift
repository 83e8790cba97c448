import ByteEncoding
import Foundation
import WebAuthn

extension FuzzTarget {
    /// `Sources/WebAuthn/Registration`: a registration ceremony (§7.1) verified in full with every attestation format.
    ///
    /// Inputs: `J` then the client's `RegistrationResponseJSON`; or `R` then clientDataJSON and the attestation object
    /// as raw parts, which the target wraps in a response whose `id` is the attested credential's.
    static let webAuthnRegistration = FuzzTarget(name: "webauthn-registration") { bytes in
        guard let response = registrationResponse(bytes),
            let clientData = Base64URL.bytes(response.response.clientDataJSON),
            let attestationObject = Base64URL.bytes(response.response.attestationObject)
        else { return }
        let verifier = RegistrationVerifier(
            relyingParty: FuzzRelyingParty.matching(attestationObject: attestationObject),
            policy: AttestationPolicy(safetyNetTimestampWindow: nil))
        let challenge = FuzzRelyingParty.challenge(in: clientData)
        Blocking.run {
            _ = try? await verifier.verify(
                response, expectedChallenge: challenge, requireUserVerification: false,
                at: FuzzRelyingParty.verificationTime)
        }
    }

    private static func registrationResponse(_ bytes: [UInt8]) -> RegistrationResponseJSON? {
        guard let (mode, parts) = FuzzInput.modeAndParts(bytes) else { return nil }
        switch mode {
        case UInt8(ascii: "J"):
            return try? JSONDecoder().decode(RegistrationResponseJSON.self, from: Data(parts[0]))
        case UInt8(ascii: "R"):
            let attestationObject = Array(parts[ifPresent: 1] ?? [])
            let credentialID =
                FuzzRelyingParty.authenticatorData(inAttestationObject: attestationObject)
                .flatMap { try? AuthenticatorData(bytes: $0).attestedCredentialData?.credentialID } ?? [1]
            let id = Base64URL.encode(credentialID)
            return RegistrationResponseJSON(
                id: id, rawId: id, type: "public-key",
                response: .init(
                    clientDataJSON: Base64URL.encode(parts[0]), attestationObject: Base64URL.encode(attestationObject)))
        default:
            return nil
        }
    }
}
