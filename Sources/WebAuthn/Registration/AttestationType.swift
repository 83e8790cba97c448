import SwiftASN1
import X509

/// What an attestation statement proves (WebAuthn L3 §6.5.4).
public enum AttestationType: String, Sendable, Codable {
    /// No attestation.
    case none
    /// Signed by the credential's own key: proves possession, not provenance.
    case `self`
    /// Signed by an attestation key whose certificate names the authenticator model.
    case basic
    /// Signed by a key certified by an attestation CA (TPM, Android).
    case attCA
    /// Signed through an anonymisation CA (Apple).
    case anonCA
}

/// What a format's verification established.
struct AttestationResult: Sendable {
    let type: AttestationType
    /// The certificate chain, leaf first, to evaluate against trust anchors; empty for none and self.
    let trustPath: [Certificate]
    /// Critical extensions of the leaf that the format verified itself, which chain validation may then accept.
    let verifiedCriticalExtensions: [ASN1ObjectIdentifier]

    init(type: AttestationType, trustPath: [Certificate], verifiedCriticalExtensions: [ASN1ObjectIdentifier] = []) {
        self.type = type
        self.trustPath = trustPath
        self.verifiedCriticalExtensions = verifiedCriticalExtensions
    }
}
