import Foundation

/// A claimed message with its device's current token for the message's gateway: `nil` when the device has none any
/// more or was deactivated.
struct ClaimedPush: Sendable {
    let message: PushOutboxMessage
    let token: String?
}

/// A security alert to fan out to the account's active devices with a push token, except `excluding`.
struct SecurityAlertFanOut: Sendable {
    let kind: SecurityAlertKind
    let account: AccountID
    let excluding: Set<DeviceID>
    /// Devices holding one of these push tokens are left out too: the installation the event came from.
    var excludingTokens: Set<String> = []
    /// Names the event once, so the same event never enqueues twice: with the device id, the dedupe key.
    var eventKey: String
    let data: [String: String]
    let occurredAt: Date
    let expiresAt: Date
}

/// Stores the push outbox.
protocol PushOutboxRepository: Sendable {
    /// Writes messages, leaving out any whose dedupe key is written already; returns how many were new.
    @discardableResult
    func enqueue(_ messages: [PushOutboxMessage]) async throws -> Int
    /// Claims up to `limit` messages due at `date` (pending ones due, and sending ones whose claim lapsed) for
    /// `lease`, counting an attempt on each. Each message is claimed by one caller at a time, on any instance.
    func claimDue(at date: Date, lease: Duration, limit: Int) async throws -> [ClaimedPush]
    /// Ends a claimed message as sent, dead or skipped; false when the claim was lost.
    @discardableResult
    func finish(_ message: PushOutboxMessage, as status: PushOutboxMessage.Status, reason: String?, at date: Date)
        async throws -> Bool
    /// Puts a claimed message back to wait until `date`; false when the claim was lost.
    @discardableResult
    func reschedule(_ message: PushOutboxMessage, to date: Date, reason: String) async throws -> Bool
    /// Clears the device's token for `gateway` if it is still `token`: the gateway said it is dead.
    func clearToken(of device: DeviceID, gateway: PushGateway, token: String, at date: Date) async throws
    /// Deletes messages that finished before `date`; returns how many.
    func purgeFinished(before date: Date) async throws -> Int
}
