import Foundation

/// The kinds of security event Hale records.
public enum AuditEventType: String, Sendable, CaseIterable {
    /// A device registered a hardware key.
    case deviceRegistered = "device_registered"
    /// A device key signed in from a network other than the device's last.
    case deviceKeyNewIpRange = "device_key_new_ip_range"
    /// A spent refresh token was presented again; its session was revoked.
    case refreshTokenReuseDetected = "refresh_token_reuse_detected"
    /// A session bound to an attested app instance was refreshed without proof of its key (`details`: `reason`); it
    /// was revoked.
    case boundRefreshRefused = "bound_refresh_refused"
    /// A session bound to Play Integrity was refreshed without a token, its app saying Google's service could not be
    /// reached, within `tokens.playIntegrityOutageGrace` of its last proved refresh.
    case boundRefreshOutageGrace = "bound_refresh_outage_grace"
    /// A device was deactivated: its keys revoked and its sessions ended.
    case deviceDeactivated = "device_deactivated"
    /// A device was deleted with its keys; its sessions ended.
    case deviceDeleted = "device_deleted"
    /// A social identity joined an existing account through the email the provider verified.
    case socialIdentityLinked = "social_identity_linked"
    /// A passkey was added to an existing account.
    case passkeyRegistered = "passkey_registered"
    /// A passkey was deleted from the account; `details` name it (`passkeyId`).
    case passkeyDeleted = "passkey_deleted"
    /// A passkey sign-in whose signature verified showed a sign of a cloned authenticator; `details` say which
    /// passkey and sign, and whether the sign-in was refused.
    case passkeyCloneSuspected = "passkey_clone_suspected"
    /// A passkey or social sign-in came from an app installation new to the account.
    case newDeviceSignIn = "new_device_sign_in"
    /// Apple said the person stopped using Sign in with Apple with the app; the tokens it signed in with were revoked.
    case appleConsentRevoked = "apple_consent_revoked"
    /// Apple said the person deleted their Apple ID; the Apple identity was unlinked.
    case appleIdentityUnlinked = "apple_identity_unlinked"
    /// The account was deleted with everything it owned; its audit events are kept.
    case accountDeleted = "account_deleted"
    /// The account granted consent to health data of some kinds from a platform.
    case healthConsentGranted = "health_consent_granted"
    /// The account revoked consent to health data; the data of those kinds was deleted.
    case healthConsentRevoked = "health_consent_revoked"
    /// The account deleted all of its health data.
    case healthDataDeleted = "health_data_deleted"
    /// A device approved a confirmation request with its key's signature.
    case confirmationApproved = "confirmation_approved"
    /// A device denied a confirmation request with its key's signature.
    case confirmationDenied = "confirmation_denied"
    /// A personal access token was revoked by its owner or an operator; `details` say which (`tokenId`) and who
    /// (`by`).
    case personalAccessTokenRevoked = "personal_access_token_revoked"
    /// The account signed out everywhere: every session and personal access token was revoked; `details` count
    /// them.
    case signedOutEverywhere = "signed_out_everywhere"
    /// The person proved themselves on a session with a step-up ceremony; `details` say how (`method`).
    case steppedUp = "stepped_up"
    /// The account's recovery codes were made, replacing any before; `details` count them.
    case recoveryCodesCreated = "recovery_codes_created"
    /// A recovery code opened a recovery session; `details` say how many codes are left.
    case recoveryCodeUsed = "recovery_code_used"
    /// An email address was verified and added to the account; `details` say how (`verifiedBy`).
    case emailAddressAdded = "email_address_added"
    /// An email address was removed from the account.
    case emailAddressRemoved = "email_address_removed"
    /// A recovery of the account was started (`details`: `method`, `readyAt`): it waits before it opens.
    case accountRecoveryRequested = "account_recovery_requested"
    /// A signed-in device approved a recovery, which may then be claimed at once.
    case accountRecoveryApproved = "account_recovery_approved"
    /// A waiting recovery was cancelled by a signed-in device.
    case accountRecoveryCancelled = "account_recovery_cancelled"
    /// A recovery by email or by an operator opened a recovery session (`details`: `method`).
    case accountRecovered = "account_recovered"
    /// The account signed in with a code mailed to a verified address.
    case emailSignIn = "email_sign_in"
}

/// The append-only, hash-chained record of security events. Each event stores the SHA-256 of its content and of the
/// event before it, so editing or deleting any row breaks every hash after it. Accounts appear only as keyed
/// pseudonyms (`AuditPseudonym`): erasing an account destroys its key, after which its events name no one, and the
/// chain still verifies without any key.
public struct AuditTrail: Sendable {
    let repository: any AuditRepository
    let clock: HaleClock

    /// What an account's security event was about.
    public struct Subject: Sendable {
        /// The account.
        public var account: AccountID
        /// The device, when there is one.
        public var device: DeviceID?
        /// The session, when there is one.
        public var session: SessionID?
        /// The client's network, when the event came from a request.
        public var ipRange: String?

        /// A subject.
        public init(account: AccountID, device: DeviceID? = nil, session: SessionID? = nil, ipRange: String? = nil) {
            self.account = account
            self.device = device
            self.session = session
            self.ipRange = ipRange
        }
    }

    /// How long a security alert may wait for delivery before it is given up.
    static let alertLifetime: TimeInterval = 86_400

    /// Appends an event. `details` must hold no tokens, keys or health values.
    ///
    /// An event that raises a security alert (`SecurityAlertKind`) also writes a push message to each of the
    /// account's other devices in the same transaction: every active device with a push token except
    /// `alertExcluding`, by default the subject's device.
    @discardableResult
    public func record(
        _ type: AuditEventType, _ subject: Subject, details: [String: String] = [:],
        alertExcluding: Set<DeviceID>? = nil
    ) async throws -> AuditEvent {
        try await repository.append(prepare(type, subject, details: details, alertExcluding: alertExcluding))
    }

    /// The event, ready for a repository to append in the transaction of the change it records; see `record`.
    /// `alertExcludingTokens` keeps the alert from devices holding those push tokens.
    /// `raising` names the alert when it depends on more than the event's type.
    func prepare(
        _ type: AuditEventType, _ subject: Subject, details: [String: String] = [:],
        alertExcluding: Set<DeviceID>? = nil, alertExcludingTokens: Set<String> = [], raising: SecurityAlertKind? = nil
    ) -> AuditAppend {
        // Whole milliseconds, so the time hashed is exactly the time every database stores and returns.
        let millisecondsSinceEpoch = (clock.now().timeIntervalSince1970 * 1000).rounded(.down)
        let createdAt = Date(timeIntervalSince1970: millisecondsSinceEpoch / 1000)
        let detailsJSON = Self.json(details)
        let alerting = raising ?? SecurityAlertKind(type)
        let alert = alerting.map { kind in
            var alert = Self.alert(
                kind, subject, at: createdAt, excluding: alertExcluding ?? Set([subject.device].compactMap { $0 }))
            alert.excludingTokens = alertExcludingTokens
            return alert
        }
        let reported = WebhookEvent.reporting(type, subject, details: details, alert: alerting, at: createdAt)
        return AuditAppend(account: subject.account, alert: alert, reported: reported) {
            sequence, previousHash, pseudonym in
            var event = AuditEvent(
                sequence: sequence, accountPseudonym: pseudonym, eventType: type.rawValue, deviceId: subject.device,
                sessionId: subject.session, ipRange: subject.ipRange, details: detailsJSON, createdAt: createdAt,
                previousHash: previousHash, hash: "")
            event.hash = event.expectedHash
            return event
        }
    }

    private static func alert(
        _ kind: SecurityAlertKind, _ subject: Subject, at date: Date, excluding: Set<DeviceID>
    ) -> SecurityAlertFanOut {
        var data = ["occurredAt": ISO8601.string(date)]
        data["deviceId"] = subject.device?.description
        return SecurityAlertFanOut(
            kind: kind, account: subject.account, excluding: excluding, eventKey: "", data: data, occurredAt: date,
            expiresAt: date.addingTimeInterval(alertLifetime))
    }

    /// The account's events, newest first.
    public func events(of account: AccountID, limit: Int = 100) async throws -> [AuditEvent] {
        try await repository.events(of: account, limit: limit)
    }

    /// The account's pseudonym, or nil before its first event and after its deletion.
    func pseudonym(of account: AccountID) async throws -> String? {
        try await repository.pseudonym(of: account)
    }

    /// Appends `account_deleted` for an account already deleted, under the pseudonym its events had (read before the
    /// deletion destroyed its key), so the trail shows whose history ended without saying whose it was.
    func recordDeletion(of account: AccountID, pseudonym: String?) async throws {
        var append = prepare(.accountDeleted, Subject(account: account))
        append.pseudonym = pseudonym
        _ = try await repository.append(append)
    }

    /// The account's events after `sequence`, oldest first, at most `limit`.
    public func events(of account: AccountID, after sequence: Int64, limit: Int) async throws -> [AuditEvent] {
        try await repository.events(of: account, after: sequence, limit: limit)
    }

    /// The result of checking the whole chain.
    public enum Verification: Sendable, Equatable {
        /// Every event's hash holds, and each links to the one before: `count` events.
        case intact(count: Int64)
        /// The first event whose sequence, link or hash is wrong.
        case broken(sequence: Int64, reason: String)
    }

    /// Recomputes every hash in order, a page at a time; `progress` hears how many events were checked. Each of
    /// `anchors` must still be in the chain with its hash: a chain cut short, or rewritten from an anchored event on,
    /// is broken there.
    public func verify(anchors: [AuditAnchor] = [], progress: (Int64) -> Void = { _ in }) async throws -> Verification {
        let anchored = Dictionary(anchors.map { ($0.sequence, $0.hash) }) { first, _ in first }
        var expectedSequence: Int64 = 1
        var previousHash = AuditEvent.genesisHash
        while true {
            let page = try await repository.events(from: expectedSequence, limit: 1000)
            for event in page {
                if let reason = Self.fault(in: event, expectedSequence: expectedSequence, previousHash: previousHash) {
                    return .broken(sequence: event.sequence, reason: reason)
                }
                if let hash = anchored[event.sequence], hash != event.hash {
                    return .broken(sequence: event.sequence, reason: "its hash is not the anchored one")
                }
                previousHash = event.hash
                expectedSequence += 1
            }
            progress(expectedSequence - 1)
            if page.count < 1000 { break }
        }
        let count = expectedSequence - 1
        if let lost = anchored.keys.filter({ $0 > count }).min() {
            return .broken(
                sequence: lost,
                reason: "the chain ends at event \(count), before this anchored event: its newest events were removed")
        }
        return .intact(count: count)
    }

    /// The newest event as an anchor, to keep outside the database; nil while the trail is empty.
    public func head() async throws -> AuditAnchor? {
        try await repository.newest().map { AuditAnchor(sequence: $0.sequence, hash: $0.hash) }
    }

    private static func fault(in event: AuditEvent, expectedSequence: Int64, previousHash: String) -> String? {
        if event.sequence != expectedSequence { return "event \(expectedSequence) is missing" }
        if event.previousHash != previousHash { return "it does not link to the event before it" }
        if event.hash != event.expectedHash { return "its content does not match its hash" }
        return nil
    }

    private static func json(_ details: [String: String]) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: details, options: [.sortedKeys, .withoutEscapingSlashes])
        else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
