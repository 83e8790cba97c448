import SwiftASN1
import X509

/// Lets chain validation accept critical extensions of the attestation certificate (the leaf) that its format's
/// verification procedure has already checked.
///
/// swift-certificates refuses any certificate with a critical extension that no policy claims. TPM AIK certificates
/// carry two that `RFC5280Policy` does not claim: the subject alternative name, critical because their subject is
/// empty (RFC 5280 §4.2.1.6), whose TPM manufacturer, model and version §8.3.1 has the format check; and certificate
/// policies, which RFC 5280 §6.1 path processing accepts whatever they say when, as for attestation, no particular
/// policy is required (user-initial-policy-set any-policy, no initial-explicit-policy). The claim is for the leaf
/// only: the same extensions marked critical on an intermediate or a root still fail the chain.
struct FormatVerifiedExtensionsPolicy: VerifierPolicy {
    /// The extensions the format verified on the leaf; empty for formats that need none.
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        for certificate in chain.dropFirst() {
            let claimed = certificate.extensions.filter { $0.critical && verifyingCriticalExtensions.contains($0.oid) }
            if !claimed.isEmpty {
                return .failsToMeetPolicy(reason: "a CA certificate has a critical extension only leaves may have")
            }
        }
        return .meetsPolicy
    }
}
