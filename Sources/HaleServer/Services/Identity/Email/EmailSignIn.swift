import Foundation

/// Signing in with a code mailed to a verified address: the fallback for a person without their passkey or phone
/// (seed 000 asks apps to offer one), on when `email.signIn` is. Its session is an ordinary one for everything but
/// how the account is reached: it is never a fresh sign-in (`BearerTokenVerifier`), so adding or removing a
/// credential through it needs a step-up with a passkey or device key, or else recovery by email, with its wait.
public struct EmailSignIn: Sendable {
    let emailAddresses: EmailAddresses
    let sessions: Sessions
    let audit: AuditTrail

    /// The sign-in method of its sessions.
    public static let signInMethod = "email"

    /// Mails a sign-in code to the account that verified `email`; answers alike for every address.
    public func requestCode(for email: EmailAddress) async throws -> EmailAddresses.CodeSent {
        try await emailAddresses.requestOwnerCode(for: email, purpose: .signIn)
    }

    /// Uses the code, once: the account and a new session's tokens. Records `email_sign_in`, which alerts the
    /// account's devices and addresses.
    public func signIn(_ email: EmailAddress, code: String, rememberMe: Bool, ipRange: String?) async throws -> (
        AccountID, TokenPair
    ) {
        let account = try await emailAddresses.redeemOwnerCode(
            email, code: code, purpose: .signIn, invalid: AccountRecoveries.invalidCode)
        let tokens = try await sessions.start(
            account: account, device: nil, signInMethod: Self.signInMethod, rememberMe: rememberMe)
        try await audit.record(
            .emailSignIn, AuditTrail.Subject(account: account, session: tokens.sessionId, ipRange: ipRange))
        return (account, tokens)
    }
}
