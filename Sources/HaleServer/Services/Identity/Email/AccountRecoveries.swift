import Foundation

/// Recovery by email, by an operator, and approved by another device. A code mailed to a verified address (or
/// `hale accounts recover`) proves less than a recovery code or a device of the account, so the recovery it starts
/// opens a recovery session only after `recovery.emailDelay`; meanwhile every device is pushed and every address
/// mailed, and any signed-in device of the account may cancel it, or approve it at once. A new device may also ask
/// by naming a verified address: its request waits for a signed-in device to approve it, with a fresh sign-in and the
/// two-digit pairing code the new device shows, so nobody approves a stranger's request by a tap; the account's
/// devices are asked by a pushed confirmation (`RecoveryConfirmation`) they answer with their device key. Whoever started a
/// recovery holds its claim token (shown once, stored as its SHA-256) and claims the recovery session with it once it
/// is ready. With a delay of zero, the email code opens the recovery session at once.
public struct AccountRecoveries: Sendable {
    let repository: any AccountRecoveryRepository
    let emailAddresses: EmailAddresses
    let sessions: Sessions
    /// The account's devices, which a new device's request is pushed to.
    let devices: any DeviceRepository
    let audit: AuditTrail
    /// `recovery.emailDelay`.
    public let delay: Duration
    let clock: HaleClock

    /// How long a ready recovery may wait to be claimed.
    static let claimWindow: TimeInterval = 86_400
    /// How long a new device's request waits for a signed-in device's approval.
    static let approvalWindow: TimeInterval = 600
    /// How long an approved recovery may wait to be claimed.
    static let approvedClaimWindow: TimeInterval = 3600

    /// What verifying a recovery code did.
    public enum Started: Sendable {
        /// No wait: the recovery session.
        case open(account: AccountID, tokens: TokenPair)
        /// The recovery waits; its starter claims it with `claimToken` at `recovery.readyAt`.
        case waiting(recovery: AccountRecoveryRecord, claimToken: String)
    }

    /// Mails a recovery code to the account that verified `email`; answers alike for every address.
    public func requestCode(for email: EmailAddress) async throws -> EmailAddresses.CodeSent {
        try await emailAddresses.requestOwnerCode(for: email, purpose: .recoverAccount)
    }

    /// Uses the code: a recovery session now, or a recovery that waits.
    public func verify(_ email: EmailAddress, code: String, ipRange: String?) async throws -> Started {
        let account = try await emailAddresses.redeemOwnerCode(
            email, code: code, purpose: .recoverAccount, invalid: Self.invalidCode)
        guard delay > .zero else {
            return .open(account: account, tokens: try await open(account, method: "email", ipRange: ipRange))
        }
        let (recovery, token) = try await start(for: account, method: "email", ipRange: ipRange)
        return .waiting(recovery: recovery, claimToken: token)
    }

    /// Starts a recovery of `account` that waits `delay`, as `hale accounts recover` does: the recovery and its
    /// claim token, the only time it is seen.
    public func start(for account: AccountID, method: String, ipRange: String?) async throws -> (
        AccountRecoveryRecord, String
    ) {
        let now = clock.now()
        let ready = now.addingTimeInterval(delay.timeInterval)
        let (recovery, token) = Self.record(
            of: account, method: method, at: now, readyAt: ready, expiresAt: ready.addingTimeInterval(Self.claimWindow))
        try await repository.create(recovery, audit: requested(recovery, of: account, ipRange: ipRange))
        return (recovery, token)
    }

    /// A new device asks to recover the account that verified `address`, for a signed-in device to approve: the
    /// request and its claim token. The answer is the same whether or not an account verified the address; a
    /// request naming none is kept as one that nobody approves.
    public func requestApproval(naming address: EmailAddress, ipRange: String?) async throws
        -> (AccountRecoveryRecord, String)
    {
        let now = clock.now()
        // Each request alerts every device and mails every address of the account: capped per address named, as
        // requested codes are, and counted alike for known and unknown addresses so the cap reveals nothing.
        let recent = try await repository.requests(naming: address.value, since: now.addingTimeInterval(-3600))
        guard recent < emailAddresses.limits.codesPerAddress else { throw EmailAddresses.tooMany }
        let account = try await emailAddresses.owner(of: address)
        // Ready only when approved: until then its readiness is its end.
        let end = now.addingTimeInterval(Self.approvalWindow)
        var (recovery, token) = Self.record(of: account, method: "device", at: now, readyAt: end, expiresAt: end)
        recovery.address = address.value
        if let account {
            let asking =
                try await hasAnsweringDevice(account) ? RecoveryConfirmation.asking(recovery, of: account) : nil
            try await repository.create(
                recovery, audit: requested(recovery, of: account, ipRange: ipRange), asking: asking)
        } else {
            try await repository.createUnowned(recovery)
        }
        return (recovery, token)
    }

    /// Whether the account has an active device with a key, which can answer a confirmation.
    private func hasAnsweringDevice(_ account: AccountID) async throws -> Bool {
        try await devices.activeKeyCount(of: account) > 0
    }

    /// Whether a social identity that names `account`'s verified address may join it now.
    public enum LinkDecision: Sendable, Equatable {
        /// Yes: no wait is configured, or its wait is over.
        case link
        /// Not before `readyAt`: every device and address of the account was told, and any signed-in device may
        /// cancel it, or approve it sooner.
        case waiting(readyAt: Date)
        /// A device of the account cancelled it.
        case refused
    }

    /// Decides, and starts the wait when there is none yet: a social identity joining an account by its address
    /// proves what an email code proves, so it waits as recovery by email does.
    func linkDecision(of account: AccountID, provider: String, subject: String) async throws -> LinkDecision {
        guard delay > .zero else { return .link }
        let now = clock.now()
        if let link = try await repository.link(of: account, provider: provider, subject: subject),
            link.expiresAt > now || link.cancelledAt != nil
        {
            if link.cancelledAt != nil { return .refused }
            if link.claimedAt != nil { return .link }
            if link.readyAt <= now { return try await repository.useLink(link.id, at: now) ? .link : .refused }
            return .waiting(readyAt: link.readyAt)
        }
        let ready = now.addingTimeInterval(delay.timeInterval)
        var (recovery, _) = Self.record(
            of: account, method: "social_link", at: now, readyAt: ready,
            expiresAt: ready.addingTimeInterval(Self.claimWindow))
        recovery.linkProvider = provider
        recovery.linkSubject = subject
        try await repository.create(recovery, audit: requested(recovery, of: account, ipRange: nil))
        return .waiting(readyAt: ready)
    }

    /// Deletes recoveries that lapsed or were claimed more than a week ago (a waiting link is kept: a cancelled one
    /// refuses its identity for good); returns how many.
    func purgeLapsed() async throws -> Int {
        try await repository.purge(before: clock.now().addingTimeInterval(-7 * 86_400))
    }

    /// A signed-in device approves one of the account's recoveries with the pairing code its starter sees: it may be
    /// claimed at once, for an hour. The caller has checked the device's fresh sign-in.
    public func approve(_ id: UUID, pairingCode: String, by subject: AuditTrail.Subject) async throws {
        guard pairingCode.utf8.count == 2, pairingCode.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw InvalidInput("pairingCode", .form("the two digits the new device shows"))
        }
        let now = clock.now()
        let event = audit.prepare(.accountRecoveryApproved, subject, details: ["recoveryId": id.uuidString])
        guard
            try await repository.approve(
                id, of: subject.account, pairingCode: pairingCode, at: now,
                claimableUntil: now.addingTimeInterval(Self.approvedClaimWindow), audit: event) != nil
        else {
            throw HaleError(
                .resourceNotFound, .notFound,
                message: "This account has no such recovery waiting, or the pairing code is not the one it shows.")
        }
    }

    private func requested(_ recovery: AccountRecoveryRecord, of account: AccountID, ipRange: String?) -> AuditAppend {
        audit.prepare(
            .accountRecoveryRequested, AuditTrail.Subject(account: account, ipRange: ipRange),
            details: [
                "method": recovery.method, "readyAt": ISO8601.string(recovery.readyAt),
                "recoveryId": recovery.id.uuidString,
            ])
    }

    private static func record(
        of account: AccountID?, method: String, at now: Date, readyAt: Date, expiresAt: Date
    ) -> (AccountRecoveryRecord, String) {
        let token = OpaqueToken.generate()
        let recovery = AccountRecoveryRecord(
            id: UUID(), accountId: account, method: method,
            pairingCode: String(format: "%02d", Int.random(in: 0..<100)),
            claimHash: OpaqueToken.hash(token), requestedAt: now, readyAt: readyAt, expiresAt: expiresAt,
            cancelledAt: nil, claimedAt: nil)
        return (recovery, token)
    }

    /// Claims a ready recovery, once: its account and recovery session. Before it is ready, `RECOVERY_PENDING` with
    /// the seconds left; cancelled, `RECOVERY_CANCELLED`; anything else, `RECOVERY_INVALID`.
    public func claim(_ id: UUID, token: String, ipRange: String?) async throws -> (AccountID, TokenPair) {
        let hash = OpaqueToken.hash(token)
        let now = clock.now()
        guard let claimed = try await repository.claim(id, claimHash: hash, at: now), let account = claimed.accountId
        else {
            throw try await refusal(of: id, hash: hash, at: now)
        }
        let tokens = try await open(account, method: claimed.method, ipRange: ipRange)
        return (account, tokens)
    }

    /// The account's recoveries waiting or ready to be claimed.
    public func waiting(of account: AccountID) async throws -> [AccountRecoveryRecord] {
        try await repository.waiting(of: account, at: clock.now())
    }

    /// Cancels one of the account's recoveries.
    public func cancel(_ id: UUID, by subject: AuditTrail.Subject) async throws {
        let event = audit.prepare(.accountRecoveryCancelled, subject, details: ["recoveryId": id.uuidString])
        guard try await repository.cancel(id, of: subject.account, at: clock.now(), audit: event) else {
            throw HaleError(.resourceNotFound, .notFound, message: "This account has no such recovery waiting.")
        }
    }

    private func open(_ account: AccountID, method: String, ipRange: String?) async throws -> TokenPair {
        let tokens = try await sessions.start(
            account: account, device: nil, signInMethod: RecoveryCodes.signInMethod, rememberMe: false)
        try await audit.record(
            .accountRecovered, AuditTrail.Subject(account: account, session: tokens.sessionId, ipRange: ipRange),
            details: ["method": method])
        return tokens
    }

    private func refusal(of id: UUID, hash: String, at now: Date) async throws -> HaleError {
        guard let recovery = try await repository.find(id, claimHash: hash), recovery.claimedAt == nil,
            recovery.expiresAt > now
        else { return Self.invalid }
        if recovery.cancelledAt != nil {
            return HaleError(
                .recoveryCancelled, .forbidden, message: "This recovery was cancelled from a device of the account.")
        }
        guard recovery.method != "device" else {
            var pending = HaleError(
                .recoveryPending, .conflict,
                message: "This recovery waits for a signed-in device of the account to approve it, with code "
                    + "\(recovery.pairingCode).")
            pending.retryAfterSeconds = 5
            return pending
        }
        let seconds = max(1, Int(recovery.readyAt.timeIntervalSince(now).rounded(.up)))
        var pending = HaleError(
            .recoveryPending, .conflict,
            message: "This recovery waits until \(ISO8601.string(recovery.readyAt)), in case it was not you; a "
                + "signed-in device of the account may approve it sooner, with code \(recovery.pairingCode).")
        pending.retryAfterSeconds = seconds
        return pending
    }

    static let invalidCode = HaleError(
        .emailCodeInvalid, .unauthenticated, message: "The code is wrong, expired or used. Ask for a new one.")

    static let invalid = HaleError(
        .recoveryInvalid, .unauthenticated, message: "This is not a recovery waiting to be claimed.")
}

extension HaleError.Code {
    /// The recovery waits `recovery.emailDelay` before it can be claimed; `Retry-After` says how long (409).
    public static let recoveryPending = Self(rawValue: "RECOVERY_PENDING")
    /// The recovery was cancelled by a signed-in device of the account (403).
    public static let recoveryCancelled = Self(rawValue: "RECOVERY_CANCELLED")
    /// No recovery has this id and claim token, or it was claimed or lapsed (401).
    public static let recoveryInvalid = Self(rawValue: "RECOVERY_INVALID")
}
