/// The events an endpoint may subscribe to. Each is written in the transaction of the change it reports, so none is
/// delivered for a change that did not commit, and none is lost for one that did. No payload holds a secret or a
/// health value.
public enum WebhookEventType: String, Sendable, CaseIterable, Codable {
    /// An account was made: by a passkey sign-up, a social or Firebase sign-in, or an operator.
    case accountCreated = "account.created"
    /// An account was deleted with everything it owned.
    case accountDeleted = "account.deleted"
    /// A session was opened: `signInMethod` says how.
    case sessionCreated = "session.created"
    /// Sessions were ended: one by logout (`sessionId`), all of them (`everywhere`), or one whose spent refresh
    /// token came back (`reason: refresh_token_reuse`) or that was refreshed away from its bound app instance
    /// (`reason: binding_refused`).
    case sessionRevoked = "session.revoked"
    /// A way to sign in or recover was added: a passkey, recovery codes, a verified email address, a social identity.
    case credentialAdded = "credential.added"
    /// A passkey or an email address was removed.
    case credentialRemoved = "credential.removed"
    /// A device registered its key (seed 002).
    case deviceRegistered = "device.registered"
    /// A device was deactivated or deleted; its keys are revoked and its sessions ended.
    case deviceRevoked = "device.revoked"
    /// Consent to health data of some kinds from a platform.
    case consentGranted = "consent.granted"
    /// Consent withdrawn; the data of those kinds was deleted.
    case consentRevoked = "consent.revoked"
    /// A sync stored samples: the counts and the local days it touched, never the values.
    case healthSynced = "health.synced"
    /// The account deleted all of its health data.
    case healthDeleted = "health.deleted"
    /// An Apple Health import finished; its summary's counts.
    case importCompleted = "import.completed"
    /// An Apple Health import failed; its error code.
    case importFailed = "import.failed"
    /// A member's progress reached a fitness challenge's goal, for the first time.
    case challengeCompleted = "challenge.completed"
    /// Hale alerted the account's devices: a new sign-in, a reused refresh token, a suspected clone.
    case securityAlert = "security.alert"
    /// Sent by `hale webhooks test` (or its admin route) to one endpoint, whatever it subscribes to.
    case webhookTest = "webhook.test"

    /// The types an endpoint may name: every one but the test's, which each endpoint gets when asked.
    public static let subscribable = allCases.filter { $0 != .webhookTest }
}
