import ByteEncoding
import Foundation
import Logging
import WebAuthn

/// Passkey registration, sign-in and management: the WebAuthn relying party on Hale's storage and sessions.
///
/// Every ceremony is a server challenge, consumed once. Registration binds its challenge to the signed-in account, or
/// for a passkey-first sign-up carries the account to create, which exists only once the passkey verifies. Sign-in is
/// always discoverable (the options name no credentials), so whether an email has an account is never revealed.
public struct Passkeys: Sendable {
    static let registrationKind = "passkey_registration"
    static let authenticationKind = "passkey_authentication"
    static let ceremonyLifetime: Duration = .seconds(300)

    let relyingParty: RelyingParty
    let requireUserVerification: Bool
    /// What a sign-in that shows a sign of a cloned authenticator gets (`passkeys.clonedAuthenticators`).
    let clonePolicy: ClonePolicy
    let repository: any PasskeyRepository
    /// The account's device keys, which count as ways to sign in when the last passkey goes.
    let deviceKeys: any DeviceRepository
    let socialIdentities: any SocialAccountRepository
    let accounts: Accounts
    let challenges: ServerChallenges
    let sessions: Sessions
    /// The device each sign-in's session belongs to.
    let signInDevices: SignInDevices
    let audit: AuditTrail
    /// The most passkeys one account may have (`accountLimits.passkeys`).
    let maximumPerAccount: Int
    let clock: HaleClock

    /// A registration that completed: the stored passkey and, for a sign-up, the new session's tokens.
    public struct Registered: Sendable {
        /// The passkey.
        public let passkey: PasskeyCredential
        /// The tokens of the session a sign-up starts.
        public let tokens: TokenPair?
    }

    /// Options to add a passkey to a signed-in account.
    public func registrationOptions(for accountID: AccountID, device: PasskeyDevice) async throws -> CreationOptions {
        guard let account = try await accounts.find(accountID) else { throw HaleError.invalidToken }
        let handle = try await userHandle(of: accountID)
        let credentials = try await repository.credentials(of: accountID)
        try requireRoom(besides: credentials.count)
        let existing = credentials.map { CredentialDescriptor(id: Array(Base64URL.decode($0.credentialId) ?? Data())) }
        let name = account.email ?? account.unverifiedEmail ?? "Hale account"
        let device = try device.checked()
        return try await creationOptions(
            user: .init(handle: handle, name: name, displayName: name), excluding: existing,
            binding: ChallengeBinding(accountId: accountID),
            pending: PendingRegistration(userHandle: Base64URL.encode(handle), signUp: nil, device: device))
    }

    /// Options for a passkey-first sign-up: no account exists until the passkey verifies.
    public func signUpOptions(displayName: String, email: AccountEmail?, device: PasskeyDevice) async throws
        -> CreationOptions
    {
        let name = try Self.validatedName(displayName, field: "displayName")
        let device = try device.checked()
        let handle = Array(OpaqueToken.randomBytes(32))
        return try await creationOptions(
            user: .init(handle: handle, name: email?.value ?? name, displayName: name), excluding: [], binding: .none,
            pending: PendingRegistration(
                userHandle: Base64URL.encode(handle), signUp: .init(displayName: name, email: email?.value),
                device: device))
    }

    /// Completes a registration. `account` is the signed-in account, or `nil` for a sign-up; `registeredDevice` is
    /// the device the signed-in session runs on. A sign-up's session belongs to the device of `installation`, a new
    /// one, which the passkey is registered from.
    public func register(
        _ response: RegistrationResponseJSON, account: AccountID?, registeredDevice: DeviceID? = nil,
        device: PasskeyDevice?, installation: String? = nil
    ) async throws -> Registered {
        let device = try device?.checked(fieldPrefix: "deviceInfo.")
        let (challenge, pending) = try await consumeRegistration(response, account: account)
        let verified: VerifiedRegistration
        do {
            verified = try await RegistrationVerifier(relyingParty: relyingParty).verify(
                response, expectedChallenge: challenge, requireUserVerification: requireUserVerification,
                at: clock.now())
        } catch {
            throw Self.registrationError(error)
        }
        // Checked before a sign-up creates its account, so a replayed credential ID cannot leave one behind.
        guard try await repository.find(credentialID: Base64URL.encode(verified.credentialID)) == nil else {
            throw HaleError(.conflict, .conflict, message: "This passkey is registered already.")
        }
        if let account { try requireRoom(besides: try await repository.credentials(of: account).count) }
        let owner = try await owner(for: pending, signedIn: account)
        // A passkey added to an existing account is audited and alerts its other devices; a sign-up has none yet.
        let event =
            pending.signUp != nil
            ? nil
            : audit.prepare(
                .passkeyRegistered, AuditTrail.Subject(account: owner, device: registeredDevice),
                details: ["attestationFormat": verified.format])
        let described = device ?? pending.device
        guard pending.signUp != nil else {
            let passkey = try await store(
                verified, for: owner, device: described, registeredDevice: registeredDevice, audit: event)
            return Registered(passkey: passkey, tokens: nil)
        }
        let signUpDevice = try await signInDevices.device(
            for: owner, from: .init(installation: installation, description: described), method: "passkey",
            isNewAccount: true)
        let passkey = try await store(
            verified, for: owner, device: described, registeredDevice: signUpDevice, audit: nil)
        let tokens = try await sessions.start(
            account: owner, device: signUpDevice, signInMethod: "passkey", rememberMe: false)
        return Registered(passkey: passkey, tokens: tokens)
    }

    /// Options to sign in, and the ceremony id (`uid` in seed 000) to send back with the answer.
    public func authenticationOptions() async throws -> (options: RequestOptions, ceremony: ServerChallengeID) {
        let bytes = Array(OpaqueToken.randomBytes(32))
        let issued = try await challenges.issue(
            kind: Self.authenticationKind, binding: .none, lifetime: Self.ceremonyLifetime,
            value: Base64URL.encode(bytes))
        let verification: UserVerificationRequirement = requireUserVerification ? .required : .preferred
        return (relyingParty.requestOptions(challenge: bytes, userVerification: verification), issued.challenge.id)
    }

    /// Signs in with a passkey: verifies the assertion and starts a session on the device of `installation` (see
    /// `SignInDevices`). `browser` describes the browser the account page signs in from, whatever the passkey.
    public func authenticate(
        _ response: AuthenticationResponseJSON, ceremony: ServerChallengeID, rememberMe: Bool,
        installation: String? = nil, browser: PasskeyDevice? = nil, logger: Logger
    ) async throws -> (account: AccountID, tokens: TokenPair) {
        let passkey = try await verifiedPasskey(response, ceremony: ceremony, logger: logger)
        // A device-bound passkey signs in where it was made, so its registration describes the device; a synced
        // one may be on any of the person's devices.
        let origin = SignInDevices.Origin(
            installation: installation,
            description: browser
                ?? (passkey.backupEligible
                    ? nil
                    : PasskeyDevice(
                        platform: passkey.platform, osVersion: passkey.osVersion, deviceName: passkey.deviceName)),
            passkeyDevice: passkey.backupEligible ? nil : passkey.deviceId)
        let device = try await signInDevices.device(
            for: passkey.accountId, from: origin, method: "passkey", isNewAccount: false)
        let tokens = try await sessions.start(
            account: passkey.accountId, device: device, signInMethod: "passkey", rememberMe: rememberMe)
        return (passkey.accountId, tokens)
    }

    /// Checks that the person holding one of `account`'s passkeys is present, without starting a session: the
    /// account page asks for this before it deletes the account. Throws the same 401 as a failed sign-in.
    public func confirmPresence(
        _ response: AuthenticationResponseJSON, ceremony: ServerChallengeID, of account: AccountID, logger: Logger
    ) async throws {
        let passkey = try await verifiedPasskey(response, ceremony: ceremony, logger: logger)
        guard passkey.accountId == account else { throw Self.authenticationFailed }
    }

    /// Consumes the ceremony, verifies the assertion against the stored passkey, and records the sign-in (or a
    /// suspected clone).
    private func verifiedPasskey(_ response: AuthenticationResponseJSON, ceremony: ServerChallengeID, logger: Logger)
        async throws -> PasskeyCredential
    {
        guard let (text, challenge) = SignedChallenge.value(inClientData: response.response.clientDataJSON) else {
            throw Self.authenticationFailed
        }
        let consumed = try await challenges.consumeOrInvalid(kind: Self.authenticationKind, value: text, binding: .none)
        guard consumed.id == ceremony,
            let passkey = try await repository.find(credentialID: Self.canonical(response.id))
        else {
            throw Self.authenticationFailed
        }
        try await checkUserHandle(response, belongsTo: passkey.accountId)
        let verified = try verifyAssertion(response, passkey: passkey, challenge: challenge, logger: logger)
        if let signal = verified.cloneSignal {
            try await suspectClone(passkey, signal: signal, logger: logger)
        } else {
            guard
                try await repository.recordSignIn(
                    passkey.id, signCount: Int64(verified.signCount), backupState: verified.backupState,
                    at: clock.now())
            else {
                throw Self.authenticationFailed
            }
        }
        return passkey
    }

    /// The account's passkeys.
    public func list(for account: AccountID) async throws -> [PasskeyCredential] {
        try await repository.credentials(of: account)
    }

    /// Renames one of the account's passkeys.
    public func rename(_ id: UUID, of account: AccountID, to name: String) async throws {
        guard try await repository.rename(id, of: account, to: try Self.validatedName(name, field: "name")) else {
            throw Self.notFound
        }
    }

    /// Deletes one of the account's passkeys. When it is the account's last way to sign in (no other passkey, no
    /// active device key, no social identity) it is deleted only with `confirmed`.
    public func delete(_ id: UUID, of account: AccountID, confirmed: Bool, requester: AuthenticatedAccount? = nil)
        async throws
    {
        let passkeys = try await repository.credentials(of: account)
        guard passkeys.contains(where: { $0.id == id }) else { throw Self.notFound }
        let isLast = passkeys.count == 1 ? try await hasNoOtherSignInMethod(account) : false
        guard !isLast || confirmed else {
            throw HaleError(
                .lastSignInMethod, .conflict,
                message: "This is the account's last way to sign in. Delete it with confirm=true if that is intended.")
        }
        let subject = AuditTrail.Subject(account: account, device: requester?.deviceId, session: requester?.sessionId)
        let event = audit.prepare(.passkeyDeleted, subject, details: ["passkeyId": id.uuidString.lowercased()])
        guard try await repository.delete(id, of: account, audit: event) else { throw Self.notFound }
    }

    /// Whether the account has neither an active device key nor a social identity.
    private func hasNoOtherSignInMethod(_ account: AccountID) async throws -> Bool {
        let deviceKeyCount = try await deviceKeys.activeKeyCount(of: account)
        let identityCount = try await socialIdentities.identityCount(of: account)
        return deviceKeyCount == 0 && identityCount == 0
    }
}
