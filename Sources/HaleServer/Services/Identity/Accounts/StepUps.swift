import Foundation
import Logging
import WebAuthn

/// A step-up ceremony: the person proves, on the session they are using, that they are there, so the session counts
/// as a fresh sign-in (`FreshSignIn`) for `tokens.freshSignInWindow` without signing in again. The proof is an
/// assertion by one of the account's passkeys, for a challenge issued for it.
///
/// Only a session's own credential steps up: an access token its session was signed in for, or the account page's
/// cookie. A handed-off token, a personal access token and a Firebase ID token cannot (the holder of a handed-off
/// token did not sign in; a Firebase app re-authenticates with Firebase, which gives a fresh `auth_time`).
public struct StepUps: Sendable {
    let passkeys: Passkeys
    let sessions: Sessions
    let emailAddresses: EmailAddresses
    let accounts: any AccountRepository
    let challenges: ServerChallenges
    let devices: any DeviceRepository
    let freshSignIn: FreshSignIn
    let clock: HaleClock

    /// The passkey request options for a step-up, and the ceremony they belong to.
    public func options(for identity: AuthenticatedAccount) async throws
        -> (options: RequestOptions, ceremony: ServerChallengeID)
    {
        _ = try Self.session(of: identity)
        return try await passkeys.authenticationOptions()
    }

    /// Verifies the assertion against the account's passkeys and marks the session proved now; returns until when
    /// it counts as fresh.
    public func withPasskey(
        _ response: AuthenticationResponseJSON, ceremony: ServerChallengeID, identity: AuthenticatedAccount,
        logger: Logger
    ) async throws -> Date {
        let session = try Self.session(of: identity)
        try await passkeys.confirmPresence(response, ceremony: ceremony, of: identity.accountId, logger: logger)
        guard try await sessions.stepUp(session, of: identity.accountId, method: "passkey") else {
            throw HaleError.invalidToken
        }
        return clock.now().addingTimeInterval(freshSignIn.window.timeInterval)
    }

    static let deviceChallengeKind = "step_up_device"

    /// A challenge for the key of the device this session signed in on to sign, bound to the session: the value to
    /// sign, and when it expires.
    public func deviceChallenge(for identity: AuthenticatedAccount) async throws -> (challenge: String, expiresAt: Date)
    {
        let binding = try Self.deviceBinding(of: identity)
        let issued = try await challenges.issue(
            kind: Self.deviceChallengeKind, binding: binding, lifetime: .seconds(120))
        return (issued.value, issued.challenge.expiresAt)
    }

    /// Verifies the device key's signature over the challenge, consumed once, and marks the session proved now;
    /// returns until when it counts as fresh.
    public func withDeviceKey(challenge: String, signature: String, identity: AuthenticatedAccount) async throws
        -> Date
    {
        let binding = try Self.deviceBinding(of: identity)
        try OpaqueToken.checkPresented(challenge, field: "challenge")
        _ = try await challenges.consumeOrInvalid(kind: Self.deviceChallengeKind, value: challenge, binding: binding)
        let account = identity.accountId
        let active = try await devices.devices(of: account).contains {
            $0.id == binding.deviceId && $0.deactivatedAt == nil
        }
        let keys = try await devices.keys(of: account).filter { $0.deviceId == binding.deviceId && $0.revokedAt == nil }
        guard active, keys.contains(where: { $0.verifies(signature, over: challenge) }) else {
            throw HaleError.deviceSignInFailed
        }
        guard let session = binding.sessionId, try await sessions.stepUp(session, of: account, method: "device_key")
        else { throw HaleError.invalidToken }
        return clock.now().addingTimeInterval(freshSignIn.window.timeInterval)
    }

    private static func deviceBinding(of identity: AuthenticatedAccount) throws -> ChallengeBinding {
        let session = try session(of: identity)
        guard let device = identity.deviceId else {
            throw HaleError(
                .stepUpUnavailable, .forbidden,
                message: "This session did not sign in on a device with a key; step up with a passkey instead.")
        }
        return ChallengeBinding(accountId: identity.accountId, deviceId: device, sessionId: session)
    }

    /// Leave to step up by email code: the session the code proves, of an account with nothing but verified
    /// addresses. Only `emailStepUp(for:)` gives one, so its refusals come before the address is read.
    public struct EmailStepUp: Sendable {
        /// The account stepping up.
        public let account: AccountID
        /// The session the code proves.
        let session: SessionID

        fileprivate init(account: AccountID, session: SessionID) {
            self.account = account
            self.session = session
        }
    }

    /// Leave for this session to step up by email code. Only for an account with no passkey, device key or social
    /// identity, which proves itself with those instead: an email code is never a shortcut past them.
    public func emailStepUp(for identity: AuthenticatedAccount) async throws -> EmailStepUp {
        let session = try Self.session(of: identity)
        try await requireNothingButEmail(identity.accountId)
        return EmailStepUp(account: identity.accountId, session: session)
    }

    /// Mails a step-up code to one of the account's verified addresses.
    public func requestEmailCode(to address: EmailAddress, for stepUp: EmailStepUp) async throws
        -> EmailAddresses.CodeSent
    {
        try await emailAddresses.requestOwnCode(for: address, account: stepUp.account, purpose: .stepUp)
    }

    /// Verifies the step-up code and marks the session proved now; returns until when it counts as fresh.
    public func withEmailCode(_ address: EmailAddress, code: String, for stepUp: EmailStepUp) async throws -> Date {
        let account = try await emailAddresses.redeemOwnerCode(
            address, code: code, purpose: .stepUp, invalid: EmailAddresses.invalidCode)
        guard account == stepUp.account, try await sessions.stepUp(stepUp.session, of: account, method: "email")
        else {
            throw EmailAddresses.invalidCode
        }
        return clock.now().addingTimeInterval(freshSignIn.window.timeInterval)
    }

    private func requireNothingButEmail(_ account: AccountID) async throws {
        guard try await !accounts.hasSignInCredentials(account) else {
            throw HaleError(
                .stepUpUnavailable, .forbidden,
                message: "This account has a passkey, a device key or a social sign-in: step up with it instead.")
        }
    }

    private static func session(of identity: AuthenticatedAccount) throws -> SessionID {
        switch identity.credential {
        case .accessToken where identity.signInMethod != SessionHandoffs.signInMethod, .accountPage:
            if let session = identity.sessionId { return session }
        default:
            break
        }
        throw HaleError(
            .stepUpUnavailable, .forbidden,
            message: "Only a signed-in session can step up; sign in with a passkey, a device key or a social account.")
    }
}
