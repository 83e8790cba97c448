import Foundation
import Logging

/// Delivers the mail outbox: claims the messages due, words each (`MailContent`), sends it through the transport,
/// and records what happened. Any number of instances may run it at once, as `PushDelivery`.
struct MailDelivery: Sendable {
    let repository: any MailOutboxRepository
    let transport: any MailTransport
    let sealer: SecretSealer?
    let policy: PushRetryPolicy
    let sender: Sender
    let clock: HaleClock

    /// Who mails are from, and what they call the product.
    struct Sender: Sendable {
        var address: String
        var context: MailContent.Context
    }

    /// Long enough for a batch of sends at SMTP's timeouts.
    static let lease: Duration = .seconds(300)
    static let batchSize = 5
    static let batchesPerPass = 100
    /// How long sent and dead messages are kept, without their data, for inspection.
    static let finishedRetention: TimeInterval = 7 * 86_400

    /// What one pass did.
    struct Report: Sendable, Equatable {
        var sent = 0
        var retried = 0
        var dead = 0
    }

    /// Sends every message due now, a batch at a time.
    @discardableResult
    func deliverDue(logger: Logger) async throws -> Report {
        var report = Report()
        for _ in 0..<Self.batchesPerPass {
            let batch = try await repository.claimDue(at: clock.now(), lease: Self.lease, limit: Self.batchSize)
            for message in batch {
                try await deliver(message, into: &report, logger: logger)
            }
            if batch.count < Self.batchSize { break }
        }
        return report
    }

    /// Deletes finished messages past their retention; returns how many.
    func purgeFinished() async throws -> Int {
        try await repository.purgeFinished(before: clock.now().addingTimeInterval(-Self.finishedRetention))
    }

    private func deliver(_ message: MailOutboxMessage, into report: inout Report, logger: Logger) async throws {
        var logger = logger
        logger[metadataKey: "mail_message"] = "\(message.id)"
        logger[metadataKey: "mail_kind"] = "\(message.kind)"
        guard clock.now() < message.expiresAt else {
            return try await kill(message, reason: "expired", into: &report, logger: logger)
        }
        guard let mail = outgoing(message) else {
            return try await kill(message, reason: "unreadable", into: &report, logger: logger)
        }
        switch await transport.send(mail) {
        case .delivered:
            if try await repository.finish(message, as: .sent, reason: nil, at: clock.now()) { report.sent += 1 }
            logger.info("mail sent", metadata: ["attempt": "\(message.attempts)"])
        case .retry(let reason):
            guard let delay = policy.delay(afterAttempts: Int(message.attempts)) else {
                return try await kill(message, reason: reason, into: &report, logger: logger)
            }
            if try await repository.reschedule(message, to: clock.now().addingTimeInterval(delay), reason: reason) {
                report.retried += 1
            }
            logger.notice(
                "mail will be retried",
                metadata: ["reason": "\(reason)", "attempt": "\(message.attempts)", "delay_s": "\(Int(delay))"])
        case .rejected(let reason):
            try await kill(message, reason: reason, into: &report, logger: logger)
        }
    }

    /// The message worded and addressed; nil when its data cannot be opened or worded.
    func outgoing(_ message: MailOutboxMessage) -> OutgoingMail? {
        guard let kind = MailKind(rawValue: message.kind),
            let data = MailOutbox.data(of: message, sealer: sealer),
            let content = MailContent(kind: kind, data: data, context: sender.context)
        else { return nil }
        return OutgoingMail(
            fromAddress: sender.address, fromName: sender.context.productName, toAddress: message.recipient,
            subject: content.subject, textBody: content.text, htmlBody: content.html,
            messageID: "\(message.id.uuidString.lowercased())@\(Self.domain(of: sender.address))",
            date: message.createdAt)
    }

    private static func domain(of address: String) -> String {
        address.split(separator: "@").last.map(String.init) ?? "localhost"
    }

    private func kill(_ message: MailOutboxMessage, reason: String, into report: inout Report, logger: Logger)
        async throws
    {
        if try await repository.finish(message, as: .dead, reason: reason, at: clock.now()) { report.dead += 1 }
        logger.warning("mail given up", metadata: ["reason": "\(reason)", "attempt": "\(message.attempts)"])
    }
}
