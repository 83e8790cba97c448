import Foundation

/// Confirmation requests: transaction signing. The app's backend asks (with an admin API key); Hale pushes the
/// request to the account's devices; a device approves or denies by signing `ConfirmationMessage` with its device
/// key; Hale verifies, records the answer once, and answers status queries.
public struct Confirmations: Sendable {
    let repository: any ConfirmationRepository
    let accounts: Accounts
    let devices: any DeviceRepository
    /// What settles the confirmations Hale asks itself when a new device requests a recovery.
    let recoveries: AccountRecoveries
    let audit: AuditTrail
    let clock: HaleClock
    /// Whether answers are sent to the backend's webhook.
    let sendsWebhooks: Bool

    /// Creates a confirmation for an account that has an active device to answer it, and pushes a
    /// `confirmation_request` to the account's devices in the same transaction.
    public func create(_ draft: ConfirmationDraft, by keyId: Int64) async throws -> Confirmation {
        let checked = try draft.checked()
        guard try await accounts.find(checked.account) != nil else {
            throw HaleError(.notFound, .notFound, message: "No such account.")
        }
        guard try await !answeringDevices(of: checked.account).isEmpty else { throw HaleError.noActiveDevice }
        let now = clock.now()
        let confirmation = Confirmation(
            id: .random(), accountId: checked.account, actionType: checked.actionType, actionPayload: checked.payload,
            createdByKeyId: keyId, createdAt: now,
            expiresAt: HaleClock.wholeMilliseconds(now.addingTimeInterval(Double(checked.lifetime))), decision: nil,
            answeredAt: nil, answeredByDeviceId: nil, signature: nil)
        _ = try await repository.insert(confirmation)
        return confirmation
    }

    /// Any confirmation, for the backend that holds an admin key.
    public func find(_ id: ConfirmationID) async throws -> Confirmation {
        guard let confirmation = try await repository.find(id) else { throw HaleError.confirmationNotFound }
        return confirmation
    }

    /// The account's confirmation.
    public func find(_ id: ConfirmationID, of account: AccountID) async throws -> Confirmation {
        guard let confirmation = try await repository.find(id, of: account) else {
            throw HaleError.confirmationNotFound
        }
        return confirmation
    }

    /// The account's confirmations waiting for an answer, newest first.
    public func pending(of account: AccountID) async throws -> [Confirmation] {
        try await repository.pending(of: account, at: clock.now(), limit: 50)
    }

    /// Records a device's answer: the device must be the one the caller's session signed in on, active, and its key
    /// must have signed the confirmation's message with this decision. An answer counts once, and is recorded with
    /// its audit event in one transaction. An `account.recovery` confirmation's approval carries the pairing code the
    /// new device shows, and approves that recovery; its denial cancels it.
    public func answer(
        _ id: ConfirmationID, decision: ConfirmationMessage.Decision, signature: String, pairingCode: String? = nil,
        account: AccountID, device: DeviceID?
    ) async throws -> Confirmation {
        let confirmation = try await find(id, of: account)
        let now = clock.now()
        try Self.requireWaiting(confirmation, at: now)
        guard let device, let keys = try await answeringDevices(of: account)[device] else {
            throw HaleError.confirmationWrongDevice
        }
        let message = ConfirmationMessage(
            confirmationId: id, actionType: confirmation.actionType, actionPayload: confirmation.actionPayload,
            decision: decision)
        guard keys.contains(where: { $0.verifies(signature, over: message.challenge) }) else {
            throw HaleError.confirmationSignatureInvalid
        }
        try await settleRecovery(
            confirmation, decision, pairingCode: pairingCode, by: .init(account: account, device: device))
        let audit = audit.prepare(
            decision == .approve ? .confirmationApproved : .confirmationDenied, .init(account: account, device: device),
            details: ["confirmationId": id.description, "actionType": confirmation.actionType])
        guard
            try await repository.answer(
                id, of: account, decision: decision, device: device, signature: signature,
                webhook: sendsWebhooks && confirmation.createdByKeyId != Confirmation.askedByHale, audit: audit,
                at: now)
        else {
            // Answered, expired, or the device was deactivated since it was checked.
            try Self.requireWaiting(try await find(id, of: account), at: now)
            throw HaleError.confirmationWrongDevice
        }
        return try await find(id, of: account)
    }

    /// Approves or cancels the recovery an `account.recovery` confirmation asks about, before its answer is recorded:
    /// a wrong pairing code leaves both waiting, so the person may type it again. The device's signature over the
    /// confirmation is the fresh proof an approval needs.
    private func settleRecovery(
        _ confirmation: Confirmation, _ decision: ConfirmationMessage.Decision, pairingCode: String?,
        by subject: AuditTrail.Subject
    ) async throws {
        guard let recovery = RecoveryConfirmation.recoveryId(of: confirmation),
            confirmation.createdByKeyId == Confirmation.askedByHale
        else {
            guard pairingCode == nil else {
                throw InvalidInput(
                    "pairingCode", .described("pairingCode answers only an account.recovery confirmation"))
            }
            return
        }
        switch decision {
        case .approve: try await recoveries.approve(recovery, pairingCode: pairingCode ?? "", by: subject)
        case .deny: try await recoveries.cancel(recovery, by: subject)
        }
    }

    /// The account's active devices and their active keys, by device.
    private func answeringDevices(of account: AccountID) async throws -> [DeviceID: [DeviceKeyRecord]] {
        let active = Set(try await devices.devices(of: account).filter { $0.deactivatedAt == nil }.map(\.id))
        let keys = try await devices.keys(of: account).filter { $0.revokedAt == nil && active.contains($0.deviceId) }
        return Dictionary(grouping: keys, by: \.deviceId)
    }

    private static func requireWaiting(_ confirmation: Confirmation, at date: Date) throws {
        switch confirmation.status(at: date) {
        case .pending: return
        case .expired: throw HaleError.confirmationExpired
        case .approved, .denied: throw HaleError.confirmationAlreadyAnswered
        }
    }
}
