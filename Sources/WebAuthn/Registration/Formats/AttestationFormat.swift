import CBOR
import Foundation

/// What every attestation statement format verifier is given (WebAuthn L3 §6.5.3), and the relying party's policy.
struct AttestationInput: Sendable {
    let statement: CBORValue
    let authenticatorData: AuthenticatorData
    let credential: AttestedCredentialData
    let clientDataHash: [UInt8]
    /// The policy the registration is verified under; some formats have options in it.
    let policy: AttestationPolicy
    /// The time the registration is verified at, for formats that carry a timestamp.
    let verificationTime: Date

    /// authenticatorData ‖ clientDataHash: what most formats sign.
    var signedData: [UInt8] { authenticatorData.bytes + clientDataHash }
}

/// One attestation statement format.
protocol AttestationFormat: Sendable {
    /// The `fmt` identifier.
    static var identifier: String { get }
    /// Verifies the statement; returns what it proves and the chain to evaluate.
    func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult
}

extension AttestationFormat {
    static func invalid(_ message: String) -> WebAuthnError {
        WebAuthnError(.invalidAttestation, "\(identifier): \(message)")
    }
}
