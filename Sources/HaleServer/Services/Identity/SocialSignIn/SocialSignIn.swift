import Foundation
import Logging

/// Exchanges a Google, Apple or Facebook token for a personal access token (seed 003), creating the account on
/// first sign-in.
///
/// A returning `(provider, subject)` signs in to its account. A new identity joins an existing account only through
/// an email the provider verified, and only when `linkByVerifiedEmail` is on; otherwise that email's owner must sign
/// in another way. Signing in never changes an account's role.
public struct SocialSignIn: Sendable {
    /// What a successful sign-in returns.
    public struct Result: Sendable, Equatable {
        /// The personal access token's id, the JSON:API resource id.
        public let tokenId: Int64
        /// `<id>|<secret>`, usable as a bearer token on every route.
        public let token: String
        /// The account signed in to.
        public let accountId: AccountID
        /// The account's role.
        public let role: String
        /// Whether this sign-in created the account.
        public let createdAccount: Bool
    }

    let verifier: any SocialIdentityVerifier
    let repository: any SocialAccountRepository
    /// The devices sign-ins belong to.
    let devices: any DeviceRepository
    let accounts: Accounts
    let audit: AuditTrail
    /// Where an address the provider verified is kept as the account's.
    let emailAddresses: EmailAddresses
    let linkByVerifiedEmail: Bool
    /// The wait a link by verified address takes, as recovery by email does.
    let recoveries: AccountRecoveries
    /// How long the personal access token a sign-in issues is valid.
    let tokenLifetime: Duration
    /// Apple refresh tokens, when Apple's REST API is configured.
    public let appleTokens: AppleRefreshTokens?
    let clock: HaleClock

    /// Verifies the provider's token and signs in, or signs up.
    public func signIn(_ request: SocialSignInRequest, logger: Logger) async throws -> Result {
        let verified = try await verifier.verify(
            provider: request.provider, token: request.token, nonce: request.nonce, logger: logger)
        let now = clock.now()
        let secret = OpaqueToken.generate()
        var write = try await plan(request, verified, secretHash: OpaqueToken.hash(secret), at: now)
        try await placeOnDevice(&write, request, at: now)
        var obtained: String?
        if let code = request.authorizationCode {
            obtained = try await keepAppleRefreshToken(exchanging: code, for: verified, in: &write, logger: logger)
        }
        let id: Int64
        do {
            id = try await repository.apply(write, at: now)
        } catch {
            // Apple issued a token just now; if it cannot be kept, it must still be revoked.
            if let obtained, let clientID = write.identity.clientId {
                try? await appleTokens?.enqueue(obtained, clientID: clientID)
            }
            throw error
        }
        if verified.emailVerified, !verified.privateRelayEmail, let email = verified.email,
            let address = EmailAddress(email)
        {
            try await emailAddresses.adopt(address, verifiedBy: request.provider, for: write.identity.accountId)
        }
        if write.identityIsNew, write.newAccount == nil {
            try await audit.record(
                .socialIdentityLinked, AuditTrail.Subject(account: write.identity.accountId),
                details: ["provider": request.provider])
        }
        return Result(
            tokenId: id, token: "\(id)|\(secret)", accountId: write.identity.accountId, role: request.role.rawValue,
            createdAccount: write.newAccount != nil)
    }

    /// The token belongs to the device of the installation that signed in: the one named in `X-Installation-Id`,
    /// else the one its FCM token identifies (seed 003's app sends no installation id, and the token stays with the
    /// installation), else a new device. A device new to an existing account is a sign-in from a new device: audited
    /// in the sign-in's transaction, alerting every other device but those holding the tokens just sent.
    private func placeOnDevice(_ write: inout SocialSignInWrite, _ request: SocialSignInRequest, at now: Date)
        async throws
    {
        let account = write.identity.accountId
        let installation = request.installation ?? request.deviceTokens.first.map { "fcm:\($0)" }
        let installationHash = installation.map(OpaqueToken.hash)
        if write.newAccount == nil, let installationHash,
            let known = try await devices.activeDevice(of: account, installationHash: installationHash)
        {
            try await devices.recordUse(of: known.id, account: account, at: now)
            write.token.deviceId = known.id
            return
        }
        if write.newAccount == nil { _ = try await devices.deleteEmptyDevices(of: account, at: now) }
        let device = SignInDevices.newDevice(
            of: account, installation: installation, name: "Signed in with \(request.provider)", deviceType: "mobile",
            at: now)
        write.newDevice = device
        write.token.deviceId = device.id
        if write.newAccount == nil {
            write.newInstallationAudit = audit.prepare(
                .newDeviceSignIn, AuditTrail.Subject(account: account, device: device.id),
                details: ["signInMethod": request.provider], alertExcludingTokens: Set(request.deviceTokens))
        }
    }

    private func plan(
        _ request: SocialSignInRequest, _ verified: VerifiedSocialIdentity, secretHash: String, at now: Date
    ) async throws -> SocialSignInWrite {
        let token = { (account: AccountID) in
            PersonalAccessTokenRecord(
                id: nil, accountId: account, name: "\(request.provider) sign-in", secretHash: secretHash,
                createdAt: now, expiresAt: now.addingTimeInterval(tokenLifetime.timeInterval),
                signInMethod: request.provider)
        }
        // An address the account model cannot hold is treated as no address, never echoed back.
        let verifiedEmail = verified.emailVerified ? verified.email.flatMap { try? AccountEmail($0) } : nil
        if var identity = try await repository.identity(provider: request.provider, subject: verified.subject) {
            try await requireRole(request.role, of: identity.accountId)
            identity.email = verified.email ?? identity.email
            identity.emailVerified = verified.email == nil ? identity.emailVerified : verified.emailVerified
            identity.privateRelayEmail = verified.privateRelayEmail
            identity.lastSignInAt = now
            return write(identity: identity, isNew: false, request, newAccount: nil, token: token(identity.accountId))
        }
        var identity = SocialIdentity(
            id: UUID(), accountId: .random(), provider: request.provider, subject: verified.subject,
            email: verified.email, emailVerified: verified.emailVerified, privateRelayEmail: verified.privateRelayEmail,
            clientId: verified.audience, createdAt: now, lastSignInAt: now)
        if let verifiedEmail, let owner = try await accounts.find(email: verifiedEmail) {
            guard linkByVerifiedEmail else { throw Self.emailTaken }
            try await requireRole(request.role, of: owner.id)
            switch try await recoveries.linkDecision(
                of: owner.id, provider: request.provider, subject: verified.subject)
            {
            case .link: break
            case .waiting(let readyAt): throw Self.linkPending(until: readyAt)
            case .refused: throw Self.emailTaken
            }
            identity.accountId = owner.id
            return write(identity: identity, isNew: true, request, newAccount: nil, token: token(owner.id))
        }
        let account = Account(
            id: identity.accountId, email: verifiedEmail?.value,
            unverifiedEmail: verifiedEmail == nil ? verified.email.flatMap { try? AccountEmail($0).value } : nil,
            role: request.role.rawValue, createdAt: now, updatedAt: now)
        return write(identity: identity, isNew: true, request, newAccount: account, token: token(account.id))
    }

    /// Exchanges an Apple authorization code for the refresh token to revoke when the account is deleted. A token
    /// it replaces is not revoked: revoking any of a person's tokens ends their whole authorization for the app,
    /// the new one included. Deleting the account revokes the one kept, and with it the rest.
    /// Returns the sealed token it kept, if any.
    private func keepAppleRefreshToken(
        exchanging code: String, for verified: VerifiedSocialIdentity, in write: inout SocialSignInWrite,
        logger: Logger
    ) async throws -> String? {
        guard let appleTokens, let clientID = verified.audience else {
            logger.notice("apple authorization code ignored: Apple's REST API is not configured")
            return nil
        }
        let sealed = try await appleTokens.obtain(
            authorizationCode: code, clientID: clientID, subject: verified.subject, logger: logger)
        write.identity.refreshTokenSealed = sealed
        write.identity.clientId = clientID
        return sealed
    }

    /// Sign-up stores the cleaner profile and the services; every sign-in registers the push tokens.
    private func write(
        identity: SocialIdentity, isNew: Bool, _ request: SocialSignInRequest, newAccount: Account?,
        token: PersonalAccessTokenRecord
    ) -> SocialSignInWrite {
        let services =
            newAccount == nil
            ? []
            : request.previousServices.map { ("previous", $0) } + request.preferredServices.map { ("preferred", $0) }
        return SocialSignInWrite(
            newAccount: newAccount, identity: identity, identityIsNew: isNew,
            cleaner: newAccount == nil ? nil : request.cleaner, services: services, pushTokens: request.deviceTokens,
            token: token)
    }

    private func requireRole(_ role: SocialRole, of account: AccountID) async throws {
        guard let existing = try await accounts.find(account) else { throw Self.emailTaken }
        guard existing.role == role.rawValue else {
            throw InvalidInput(
                "role",
                .described("This account is registered as \(existing.role); signing in cannot change its role."))
        }
    }

    /// A 409 while the identity waits to join the account its verified address names.
    static func linkPending(until readyAt: Date) -> HaleError {
        HaleError(
            .oauthError, .conflict,
            message: "An account with this email exists. This sign-in can join it from \(ISO8601.string(readyAt)), "
                + "unless a device signed in to it says no; the account's devices and addresses were told.")
    }

    static let emailTaken = HaleError(
        .oauthError, .conflict,
        message: "An account with this email exists. Sign in with the method it was created with.")
}
