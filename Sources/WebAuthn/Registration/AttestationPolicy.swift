import Foundation
import X509

/// Which attestations a relying party trusts.
public struct AttestationPolicy: Sendable {
    /// Root certificates that attestation chains may lead to, such as the FIDO Metadata Service roots or a vendor's.
    public var trustAnchors: [Certificate]
    /// When set, a registration is accepted only with an attestation that chains to `trustAnchors`; `none`, self
    /// and unchained attestations are rejected. When not set, they are accepted and reported as untrusted.
    public var requireTrustedAttestation: Bool
    /// `android-key` (§8.4): when set, the key's origin and purpose may come from the union of the `softwareEnforced`
    /// and `teeEnforced` authorization lists. When not set (the default), only `teeEnforced` counts, so only keys
    /// generated in a trusted execution environment or StrongBox are accepted, which every real device attests.
    public var androidKeyAllowsSoftwareEnforced: Bool
    /// `android-safetynet` (§8.5): how far, in seconds, the response's `timestampMs` may lie from the verification
    /// time, either way. `nil` skips the check, for replaying recorded responses; the default is 60 seconds.
    public var safetyNetTimestampWindow: TimeInterval?

    /// A policy.
    public init(
        trustAnchors: [Certificate] = [], requireTrustedAttestation: Bool = false,
        androidKeyAllowsSoftwareEnforced: Bool = false, safetyNetTimestampWindow: TimeInterval? = 60
    ) {
        self.trustAnchors = trustAnchors
        self.requireTrustedAttestation = requireTrustedAttestation
        self.androidKeyAllowsSoftwareEnforced = androidKeyAllowsSoftwareEnforced
        self.safetyNetTimestampWindow = safetyNetTimestampWindow
    }

    /// Accept any well-formed attestation; trust none. Suits consumer passkeys, which mostly send `none`.
    public static let acceptAny = AttestationPolicy()
}
