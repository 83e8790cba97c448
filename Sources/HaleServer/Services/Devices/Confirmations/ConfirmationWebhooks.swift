import AsyncHTTPClient
import ByteEncoding
import Crypto
import Foundation
import Logging
import NIOCore

/// Sends each confirmation answer to the app's backend, once it is recorded: a POST of the answer as JSON, signed
/// with HMAC-SHA256 so the backend knows it came from Hale and when. Failures are retried with the push backoff;
/// any number of instances may deliver, each webhook claimed by one at a time.
///
/// The signature header is `Hale-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`: the
/// backend recomputes it over the raw body, compares in constant time, and refuses old timestamps.
public struct ConfirmationWebhooks: Sendable {
    let repository: any ConfirmationWebhookStore
    let settings: HaleConfiguration.ConfirmationWebhook
    let http: HTTPClient
    let policy: PushRetryPolicy
    let clock: HaleClock

    /// What one pass did.
    public struct Report: Sendable, Equatable {
        /// Answered 2xx by the backend.
        public var delivered = 0
        /// Failed, to be tried again.
        public var retried = 0
        /// Failed for the last time.
        public var dead = 0
    }

    /// How long a claim holds: longer than a request's timeout.
    static let lease: TimeInterval = 60

    /// Delivers the webhooks due now.
    public func deliverDue(logger: Logger) async throws -> Report {
        var report = Report()
        for claimed in try await repository.claimWebhooks(at: clock.now(), lease: Self.lease, limit: 50) {
            let failure = await send(claimed.confirmation)
            guard let failure else {
                try await repository.finishWebhook(claimed, as: .delivered, error: nil)
                report.delivered += 1
                continue
            }
            if let delay = policy.delay(afterAttempts: claimed.attempts) {
                try await repository.retryWebhook(claimed, at: clock.now().addingTimeInterval(delay), error: failure)
                report.retried += 1
            } else {
                try await repository.finishWebhook(claimed, as: .dead, error: failure)
                report.dead += 1
            }
            logger.notice(
                "confirmation webhook failed",
                metadata: ["confirmation": "\(claimed.confirmation.id)", "reason": "\(failure)"])
        }
        return report
    }

    /// Posts the answer; nil when the backend answered 2xx, else a short reason.
    private func send(_ confirmation: Confirmation) async -> String? {
        do {
            let body = try Self.body(of: confirmation)
            var request = HTTPClientRequest(url: settings.url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Hale-Webhook-Id", value: confirmation.id.description)
            request.headers.add(
                name: "Hale-Signature",
                value: Self.signature(
                    of: body, at: Int(clock.now().timeIntervalSince1970), secret: Array(settings.secret.utf8)))
            request.body = .bytes(ByteBuffer(bytes: body))
            let response = try await http.execute(request, timeout: .seconds(15))
            _ = try? await response.body.collect(upTo: 64 << 10)
            return (200..<300).contains(response.status.code) ? nil : "http_\(response.status.code)"
        } catch {
            return "unreachable"
        }
    }

    /// `t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`.
    public static func signature(of body: [UInt8], at timestamp: Int, secret: [UInt8]) -> String {
        var signed = Array("\(timestamp).".utf8)
        signed += body
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret))
        return "t=\(timestamp),v1=\(Hex.encode(Data(mac)))"
    }

    /// `{"type": "confirmation.answered", "confirmation": {…}}` with the answer's signature, keys sorted.
    static func body(of confirmation: Confirmation) throws -> [UInt8] {
        struct Body: Encodable {
            let type = "confirmation.answered"
            let confirmation: Answered
        }
        struct Answered: Encodable {
            let id, accountId, actionType, actionPayload, status, decision, answeredAt, deviceId, signature: String
        }
        let answered = Answered(
            id: confirmation.id.description, accountId: confirmation.accountId.description,
            actionType: confirmation.actionType, actionPayload: confirmation.actionPayload,
            status: confirmation.status(at: confirmation.answeredAt ?? confirmation.createdAt).rawValue,
            decision: confirmation.decision ?? "", answeredAt: confirmation.answeredAt.map(ISO8601.string) ?? "",
            deviceId: confirmation.answeredByDeviceId?.description ?? "", signature: confirmation.signature ?? "")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(Body(confirmation: answered)))
    }
}
