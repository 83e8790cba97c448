import ByteEncoding
import Crypto
import Foundation
import Logging

/// Starts, refreshes and revokes sessions: the core every sign-in method uses.
///
/// A session is a refresh-token family. Every refresh spends the presented token and issues its successor, derived
/// as HMAC(session secret, token). A spent token presented again means it was copied, so the whole family is revoked
/// — except within the grace period, while its successor is still unused: then it is taken as a mobile app retrying a
/// refresh whose response it lost, and it gets the same successor again. Retries are idempotent, and the family
/// never has more than one live token.
public struct Sessions: Sendable {
    let repository: any SessionRepository
    let accessTokens: AccessTokens
    let lifetimes: SessionLifetimes
    let audit: AuditTrail
    /// Whether and how sessions are bound to attested app instances.
    var binding = SessionBinding.off
    let clock: HaleClock

    /// Starts a session for the account and returns its first tokens. With `tokens.bindToAttestation` on, a session
    /// opened on a device with an attested App Attest key is bound to the newest such key, provisionally: its first
    /// proved refresh may prove any key of that device.
    public func start(account: AccountID, device: DeviceID?, signInMethod: String, rememberMe: Bool) async throws
        -> TokenPair
    {
        let signer = try await accessTokens.signer()
        let now = clock.now()
        var session = Session(
            id: .random(), accountId: account, deviceId: device, signInMethod: signInMethod, rememberMe: rememberMe,
            createdAt: now, lastUsedAt: now, expiresAt: expiry(rememberMe: rememberMe, from: now),
            revokedAt: nil, revokeReason: nil)
        if binding.mode != .off, let device, let key = try await binding.instances?.newestKey(of: account, on: device) {
            session.attestationKeyId = key.id
            session.attestationKeyThumbprint = key.thumbprint
            session.attestationProvisional = true
        }
        let refreshToken = OpaqueToken.generate()
        let record = SessionRecord(session: session, tokenSecret: OpaqueToken.generate())
        try await repository.create(record, firstToken: Self.record(refreshToken, of: session.id, at: now))
        return try await pair(for: record, refreshToken: refreshToken, signer: signer)
    }

    /// Exchanges a refresh token for new tokens, rotating it. Reuse is logged to `logger`, which should be the
    /// request's, so the line carries its request id.
    ///
    /// With `tokens.bindToAttestation` on, `attestation` is the refresh's proof that it comes from the app instance
    /// its session is bound to: a bound session's refresh without a valid one is refused and ends the session, with
    /// an audit event and an alert; an unbound session's refresh with one binds the session to its key.
    ///
    /// `unavailable`, sent instead of an attestation, is why the app could not get a Play Integrity token: a session
    /// bound to Play Integrity then refreshes within `tokens.playIntegrityOutageGrace` of its last proved refresh,
    /// audited each time.
    public func refresh(
        _ refreshToken: String, attestation: RefreshAttestation? = nil, unavailable: String? = nil,
        logger: Logger = Logger(label: "hale.sessions")
    ) async throws -> TokenPair {
        try OpaqueToken.checkPresented(refreshToken, field: "refreshToken")
        let signer = try await accessTokens.signer()
        let proof = try await proof(of: attestation, unavailable: unavailable, for: refreshToken, logger: logger)
        let outcome = try await repository.transaction { repository in
            try await rotate(refreshToken, in: repository, signer: signer, proof: proof)
        }
        switch outcome {
        case .rotated(let pair):
            return pair
        case .unknown, .revoked:
            throw HaleError.invalidToken
        case .expired:
            throw HaleError.expiredToken
        case .reuseDetected(let session):
            logger.warning("refresh token reuse detected; session revoked", metadata: ["session": "\(session.id)"])
            throw HaleError.reusedToken
        case .bindingRefused(let session, let reason):
            logger.warning(
                "bound refresh refused; session revoked", metadata: ["session": "\(session.id)", "reason": "\(reason)"])
            throw Self.bindingRefused
        case .bindingRequired:
            throw Self.bindingRequired
        }
    }

    /// The session with this identifier, if it exists.
    public func find(_ id: SessionID) async throws -> Session? {
        try await repository.find(id)
    }

    /// The account's active sessions, newest first.
    public func active(of account: AccountID) async throws -> [Session] {
        try await repository.active(of: account, at: clock.now())
    }

    /// Revokes one of the account's sessions (logout). Returns `false` when there was nothing to revoke.
    @discardableResult
    public func revoke(_ session: SessionID, of account: AccountID, reason: String = "logout") async throws -> Bool {
        try await repository.revoke(session, of: account, reason: reason, at: clock.now(), audit: nil)
    }

    /// Ends a recovery session as it enrols its one credential; the time it was spent, or nil when it was not active.
    func spendRecovery(_ session: SessionID, of account: AccountID) async throws -> Date? {
        let now = clock.now()
        return try await repository.revoke(
            session, of: account, reason: Self.recoveryUsed, at: now, audit: nil) ? now : nil
    }

    /// Gives a recovery session back after its enrolment failed, unless its account's sign-ins were ended since.
    func reopenRecovery(_ session: SessionID, of account: AccountID, spentAt: Date) async throws {
        try await repository.reopen(session, of: account, revokedFor: Self.recoveryUsed, at: spentAt)
    }

    static let recoveryUsed = "recovery_used"

    /// Records that the person proved themselves on the session just now (a step-up ceremony), so it counts as a
    /// fresh sign-in for `tokens.freshSignInWindow`; `false` when it is not the account's active session.
    public func stepUp(_ session: SessionID, of account: AccountID, method: String) async throws -> Bool {
        let subject = AuditTrail.Subject(account: account, session: session)
        return try await repository.stepUp(
            session, of: account, at: clock.now(),
            audit: audit.prepare(.steppedUp, subject, details: ["method": method]))
    }

    /// What signing out everywhere ended.
    public struct SignedOutEverywhere: Sendable, Equatable {
        /// Sessions revoked.
        public var sessions: Int
        /// Personal access tokens revoked.
        public var personalAccessTokens: Int
        /// Passkeys deleted because they were added recently.
        public var passkeys = 0
        /// Device keys revoked because they were added recently.
        public var deviceKeys = 0
    }

    /// The credentials signing out everywhere removes too: those added since `since`, but the ones of `keeping` (the
    /// device of the session that asked, so the person is not locked out by removing their own new key).
    public struct RecentCredentials: Sendable, Equatable {
        /// How far back.
        public var since: Date
        /// The device whose credentials stay.
        public var keeping: DeviceID?
    }

    /// Signs the account out everywhere: revokes every session and every personal access token in one
    /// transaction, with its audit event, and with `addedWithin` deletes the passkeys and revokes the device keys
    /// added that recently, but those of the requester's device. `requester` is the identity that asked.
    @discardableResult
    public func signOutEverywhere(
        _ account: AccountID, requester: AuthenticatedAccount? = nil,
        removingCredentialsAddedWithin addedWithin: Duration? = nil
    ) async throws -> SignedOutEverywhere {
        let audit = audit
        let now = clock.now()
        let subject = AuditTrail.Subject(account: account, device: requester?.deviceId, session: requester?.sessionId)
        let recent = addedWithin.map {
            RecentCredentials(since: now.addingTimeInterval(-$0.timeInterval), keeping: requester?.deviceId)
        }
        return try await repository.revokeEverything(
            of: account, reason: "logout_all", at: now, removing: recent
        ) { ended in
            var details = [
                "sessions": String(ended.sessions), "personalAccessTokens": String(ended.personalAccessTokens),
            ]
            if recent != nil {
                details["passkeys"] = String(ended.passkeys)
                details["deviceKeys"] = String(ended.deviceKeys)
            }
            // Signing out raises no alert; removing credentials does, as removing one by one does.
            let removed = ended.passkeys + ended.deviceKeys > 0
            return audit.prepare(
                .signedOutEverywhere, subject, details: details, raising: removed ? .recentCredentialsRemoved : nil)
        }
    }

    enum RotationOutcome: Sendable {
        case unknown
        case rotated(TokenPair)
        case expired
        case revoked
        case reuseDetected(Session)
        case bindingRefused(Session, reason: String)
        case bindingRequired
    }

    /// Runs inside the write transaction, holding the presented token's and its session's locks, so a refresh that
    /// waited for a racing one sees that token as spent. `proof` is what the refresh's attestation proved.
    private func rotate(
        _ token: String, in repository: any SessionRepository, signer: AccessTokens.Signer, proof: RefreshProof
    ) async throws -> RotationOutcome {
        guard let found = try await repository.findTokenLockingSession(hash: OpaqueToken.hash(token)) else {
            return .unknown
        }
        let presented = found.token
        var record = found.session
        guard record.session.revokedAt == nil else { return .revoked }
        let now = clock.now()
        guard record.session.expiresAt > now else { return .expired }
        if let refused = try await bind(&record, proof: proof, in: repository, at: now) { return refused }
        var session = record.session
        let successor = Self.successor(of: token, secret: record.tokenSecret)
        session.lastUsedAt = now
        session.expiresAt = expiry(rememberMe: session.rememberMe, from: now)
        if presented.spentAt == nil {
            try await repository.rotate(
                spending: presented.id, successor: Self.record(successor, of: session.id, at: now),
                renewing: session.id, expiresAt: session.expiresAt)
        } else {
            guard try await isGracefulRetry(of: presented, successor: successor, in: repository, at: now) else {
                // Audited in the rotation's transaction, so the revocation, its event and its alerts commit together.
                let event = audit.prepare(
                    .refreshTokenReuseDetected,
                    AuditTrail.Subject(account: session.accountId, device: session.deviceId, session: session.id))
                _ = try await repository.revoke(
                    session.id, of: session.accountId, reason: "refresh_token_reuse", at: now, audit: event)
                return .reuseDetected(record.session)
            }
            try await repository.touch(session.id, at: now, expiresAt: session.expiresAt)
        }
        record.session = session
        return .rotated(try await pair(for: record, refreshToken: successor, signer: signer))
    }

    /// A spent token is a retry, not a theft, when it was spent within the grace period and its successor has not
    /// been used since.
    private func isGracefulRetry(
        of token: RefreshTokenRecord, successor: String, in repository: any SessionRepository, at now: Date
    ) async throws -> Bool {
        guard token.spentReason == .rotated, let spentAt = token.spentAt,
            now.timeIntervalSince(spentAt) <= lifetimes.reuseGracePeriod.timeInterval,
            let next = try await repository.findToken(hash: OpaqueToken.hash(successor))
        else {
            return false
        }
        return next.spentAt == nil
    }

    /// The successor of a refresh token: HMAC-SHA256 keyed by the session's secret, base64url.
    static func successor(of token: String, secret: String) -> String {
        let key = SymmetricKey(data: Data(secret.utf8))
        return Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: key))
    }

    /// The tokens of `record`'s session: an access token naming the key the session is bound to, and with binding
    /// on, the nonce the refresh presenting `refreshToken` is attested over.
    private func pair(for record: SessionRecord, refreshToken: String, signer: AccessTokens.Signer) async throws
        -> TokenPair
    {
        let session = record.session
        let access = try await signer.sign(
            account: session.accountId, session: session.id, device: session.deviceId,
            signInMethod: session.signInMethod, boundTo: session.boundKey)
        var pair = TokenPair(
            sessionId: session.id, accessToken: access.token, accessTokenExpiresAt: access.expiresAt,
            refreshToken: refreshToken, refreshTokenExpiresAt: session.expiresAt)
        if binding.mode != .off {
            pair.attestationNonce = SessionBinding.nonce(for: refreshToken, secret: record.tokenSecret)
        }
        return pair
    }

    private func expiry(rememberMe: Bool, from now: Date) -> Date {
        now.addingTimeInterval(lifetimes.refreshLifetime(rememberMe: rememberMe).timeInterval)
    }

    private static func record(_ token: String, of session: SessionID, at now: Date) -> RefreshTokenRecord {
        RefreshTokenRecord(
            id: UUID(), sessionId: session, tokenHash: OpaqueToken.hash(token), createdAt: now, spentAt: nil,
            spentReason: nil)
    }
}
