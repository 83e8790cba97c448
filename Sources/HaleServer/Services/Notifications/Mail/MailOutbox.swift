import Foundation

/// Writes mails for the outbox: their data sealed under the key-encryption key when there is one, since a code sits
/// there until it is sent.
struct MailOutbox: Sendable {
    let sealer: SecretSealer?
    let clock: HaleClock

    /// How long a mail may wait for delivery before it is given up.
    static let lifetime: TimeInterval = 86_400
    /// What the data is sealed for.
    static let purpose = "mail-outbox"

    /// A `kind` mail to `recipient` with `data`, due now. A code's mail expires with the code.
    func message(
        _ kind: MailKind, to recipient: EmailAddress, account: AccountID?, data: [String: String],
        expiresIn lifetime: TimeInterval = MailOutbox.lifetime
    ) throws -> MailOutboxMessage {
        let json = try Self.json(data)
        let sealed = try sealer.map { try $0.seal(json, purpose: Self.purpose) } ?? json
        let now = clock.now()
        return Self.message(
            kind, to: recipient.value, account: account, data: sealed, dedupeKey: UUID().uuidString, at: now,
            expiresAt: now.addingTimeInterval(lifetime))
    }

    /// The data as it is stored before sealing: a JSON object of strings, keys sorted.
    static func json(_ data: [String: String]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: data, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The data of a message read from the outbox, opened if it was sealed; nil when it cannot be opened.
    static func data(of message: MailOutboxMessage, sealer: SecretSealer?) -> [String: String]? {
        var json = message.data
        if SecretSealer.isSealed(json) {
            guard let opened = sealer?.openText(json, purpose: purpose) else { return nil }
            json = opened
        }
        return try? JSONDecoder().decode([String: String].self, from: Data(json.utf8))
    }

    static func message(
        _ kind: MailKind, to recipient: String, account: AccountID?, data: String, dedupeKey: String, at date: Date,
        expiresAt: Date
    ) -> MailOutboxMessage {
        MailOutboxMessage(
            id: UUID(), dedupeKey: dedupeKey, accountId: account, recipient: recipient, kind: kind.rawValue,
            data: data, status: MailOutboxMessage.Status.pending.rawValue, attempts: 0, nextAttemptAt: date,
            expiresAt: expiresAt, claimId: nil, claimedUntil: nil, lastError: nil, createdAt: date, finishedAt: nil)
    }
}
