import X509

/// Which attestations a relying party trusts.
public struct AttestationPolicy: Sendable {
    /// Root certificates that attestation chains may lead to, such as the FIDO Metadata Service roots or a vendor's.
    public var trustAnchors: [Certificate]
    /// When set, a registration is accepted only with an attestation that chains to `trustAnchors`; `none`, self
    /// and unchained attestations are rejected. When not set, they are accepted and reported as untrusted.
    public var requireTrustedAttestation: Bool

    /// A policy.
    public init(trustAnchors: [Certificate] = [], requireTrustedAttestation: Bool = false) {
        self.trustAnchors = trustAnchors
        self.requireTrustedAttestation = requireTrustedAttestation
    }

    /// Accept any well-formed attestation; trust none. Suits consumer passkeys, which mostly send `none`.
    public static let acceptAny = AttestationPolicy()
}
