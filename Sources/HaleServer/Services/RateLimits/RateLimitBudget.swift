/// Hale's request budgets, each configured as `rateLimits.<name>` and counted apart from the others.
public enum RateLimitBudget: String, CaseIterable, Sendable {
    /// Passkey sign-up and sign-in ceremonies (options and verify) and handoff redemptions, per client network.
    case signInPerIp
    /// Refresh-token exchanges on both refresh routes, per client network.
    case refreshPerIp
    /// Device-key challenges and answers, registration and sign-in, per client network.
    case deviceKeysPerIp
    /// Device-key sign-in challenges per device fingerprint and client network.
    case deviceKeysPerFingerprint
    /// Social sign-in requests, per client network.
    case socialSignInPerIp
    /// Sign in with Apple server notifications, per sending network.
    case appleNotificationsPerIp
    /// Attestation nonces, App Attest key registrations, development attestations and attested health submissions,
    /// per signed-in account.
    case attestationPerAccount
    /// Answers to confirmation requests, per signed-in account.
    case confirmationAnswersPerAccount
    /// Whole-account exports, per signed-in account: each reads everything the account holds.
    case accountExportsPerAccount
    /// Apple Health export uploads, per signed-in account: each may write gigabytes to disk.
    case healthImportsPerAccount
    /// Apple Health export uploads, per client network.
    case healthImportsPerIp
    /// Requests for email codes, per client network.
    case emailCodesPerIp

    /// The configuration key: `rateLimits.signInPerIp`.
    public var configPath: String { "rateLimits.\(rawValue)" }
}
