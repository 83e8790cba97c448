import Foundation
import Logging
import Tracing

/// Delivers the push outbox: claims the messages due, sends each through its gateway, and records what happened.
///
/// Any number of instances may run it at once: a message is claimed by one of them for `lease`, and a result is
/// recorded only while that claim holds. A message is therefore sent at most once per claim; only an instance that
/// stalls past its lease, mid-send, can lead to a second send.
public struct PushDelivery: Sendable {
    let repository: any PushOutboxRepository
    let gateways: [PushGateway: any PushGatewayClient]
    let policy: PushRetryPolicy
    let clock: HaleClock
    static let lease: Duration = .seconds(120)
    /// Small enough that a whole batch, each send at its 5 s connect and 15 s read timeouts, ends inside the lease:
    /// otherwise another instance could claim the batch's tail while this one is still sending it.
    static let batchSize = 5
    static let batchesPerPass = 200
    /// How long sent, dead and skipped messages are kept, for inspection.
    static let finishedRetention: TimeInterval = 7 * 86_400

    /// What one pass did.
    public struct Report: Sendable, Equatable {
        /// Messages the gateways accepted.
        public var sent = 0
        /// Messages to try again later.
        public var retried = 0
        /// Messages given up.
        public var dead = 0
        /// Messages that could not be sent: no gateway configured, or no token.
        public var skipped = 0
    }

    /// What a pass has done so far, and the tokens a gateway refused during it: the rest of the batch was claimed
    /// with them and must not use them.
    struct Pass {
        var report = Report()
        var refusedTokens: Set<String> = []
    }

    /// Sends every message due now, a batch at a time, up to `batchesPerPass` batches.
    @discardableResult
    public func deliverDue(logger: Logger) async throws -> Report {
        var pass = Pass()
        for _ in 0..<Self.batchesPerPass {
            let batch = try await repository.claimDue(at: clock.now(), lease: Self.lease, limit: Self.batchSize)
            for claimed in batch {
                try await deliver(claimed, in: &pass, logger: logger)
            }
            if batch.count < Self.batchSize { break }
        }
        return pass.report
    }

    /// Deletes finished messages past their retention; returns how many.
    public func purgeFinished() async throws -> Int {
        try await repository.purgeFinished(before: clock.now().addingTimeInterval(-Self.finishedRetention))
    }

    private func deliver(_ claimed: ClaimedPush, in pass: inout Pass, logger: Logger) async throws {
        let message = claimed.message
        var logger = logger
        logger[metadataKey: "push_message"] = "\(message.id)"
        logger[metadataKey: "push_kind"] = "\(message.kind)"
        logger[metadataKey: "push_gateway"] = "\(message.gateway)"
        guard let gateway = PushGateway(rawValue: message.gateway), let client = gateways[gateway] else {
            return try await skip(message, reason: "gateway_not_configured", into: &pass.report, logger: logger)
        }
        guard let token = claimed.token, !pass.refusedTokens.contains(token) else {
            return try await skip(message, reason: "no_token", into: &pass.report, logger: logger)
        }
        guard clock.now() < message.expiresAt else {
            return try await kill(message, reason: "expired", into: &pass.report, logger: logger)
        }
        let request = try Self.request(message, token: token)
        let outcome = await withSpan("push.send \(gateway.rawValue)", ofKind: .client) { span in
            span.attributes["hale.push.kind"] = message.kind
            return await client.send(request)
        }
        if case .tokenInvalid = outcome { pass.refusedTokens.insert(token) }
        try await record(outcome, of: message, gateway: gateway, token: token, into: &pass.report, logger: logger)
    }

    private func record(
        _ outcome: PushSendOutcome, of message: PushOutboxMessage, gateway: PushGateway, token: String,
        into report: inout Report, logger: Logger
    ) async throws {
        switch outcome {
        case .delivered:
            if try await repository.finish(message, as: .sent, reason: nil, at: clock.now()) { report.sent += 1 }
            logger.info("push message sent", metadata: ["attempt": "\(message.attempts)"])
        case .tokenInvalid(let reason):
            try await repository.clearToken(of: message.deviceId, gateway: gateway, token: token, at: clock.now())
            logger.notice("push token refused by gateway; cleared", metadata: ["reason": "\(reason)"])
            try await kill(message, reason: reason, into: &report, logger: logger)
        case .retry(let reason):
            guard let delay = policy.delay(afterAttempts: Int(message.attempts)) else {
                return try await kill(message, reason: reason, into: &report, logger: logger)
            }
            if try await repository.reschedule(message, to: clock.now().addingTimeInterval(delay), reason: reason) {
                report.retried += 1
            }
            logger.notice(
                "push message will be retried",
                metadata: ["reason": "\(reason)", "attempt": "\(message.attempts)", "delay_s": "\(Int(delay))"])
        case .rejected(let reason):
            try await kill(message, reason: reason, into: &report, logger: logger)
        }
    }

    private func skip(_ message: PushOutboxMessage, reason: String, into report: inout Report, logger: Logger)
        async throws
    {
        if try await repository.finish(message, as: .skipped, reason: reason, at: clock.now()) { report.skipped += 1 }
        logger.debug("push message skipped", metadata: ["reason": "\(reason)"])
    }

    private func kill(_ message: PushOutboxMessage, reason: String, into report: inout Report, logger: Logger)
        async throws
    {
        if try await repository.finish(message, as: .dead, reason: reason, at: clock.now()) { report.dead += 1 }
        logger.warning("push message given up", metadata: ["reason": "\(reason)", "attempt": "\(message.attempts)"])
    }

    static func request(_ message: PushOutboxMessage, token: String) throws -> PushDeliveryRequest {
        let data = try JSONDecoder().decode([String: String].self, from: Data(message.data.utf8))
        return PushDeliveryRequest(
            id: message.id, token: token, kind: PushKind(rawValue: message.kind) ?? .securityAlert, data: data,
            collapseID: message.collapseId, expiresAt: message.expiresAt)
    }
}
