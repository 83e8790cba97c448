/// What the relying party stored for a credential at registration and updates at each sign-in.
public struct StoredCredential: Sendable {
    /// The credential ID.
    public let id: [UInt8]
    /// The COSE_Key bytes of its public key.
    public let publicKey: [UInt8]
    /// The last signature counter seen.
    public let signCount: UInt32
    /// Whether it was backup-eligible at registration; eligibility never changes for a real credential.
    public let backupEligible: Bool

    /// A stored credential.
    public init(id: [UInt8], publicKey: [UInt8], signCount: UInt32, backupEligible: Bool) {
        self.id = id
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
    }
}

/// A sign-in that verified: what to record for the credential.
public struct VerifiedAuthentication: Sendable {
    /// The credential ID.
    public let credentialID: [UInt8]
    /// The new signature counter to store.
    public let signCount: UInt32
    /// Whether the user was verified.
    public let userVerified: Bool
    /// Whether the credential is backup-eligible.
    public let backupEligible: Bool
    /// Whether it is backed up now; it may change between sign-ins.
    public let backupState: Bool
    /// The user handle the authenticator returned, if any.
    public let userHandle: [UInt8]?
    /// A sign of a cloned authenticator, when `verify` was asked to report rather than refuse it.
    public let cloneSignal: CloneSignal?
}
