import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore
import Tracing

extension Webhooks {
    /// What one pass did.
    public struct Report: Sendable, Equatable {
        /// Answered 2xx.
        public var delivered = 0
        /// Failed, to be tried again.
        public var retried = 0
        /// Failed for the last time.
        public var failed = 0
    }

    /// How long a claim holds: longer than any timeout.
    static let lease: Duration = .seconds(180)
    /// The most deliveries claimed at once.
    static let claimLimit = 32

    /// Delivers what is due: claims, sends concurrently, records each try; claims again while there was work, so an
    /// account's next event follows as soon as the one before it was answered.
    public func deliverDue(logger: Logger) async throws -> Report {
        guard let http else { return Report() }
        var report = Report()
        for _ in 0..<20 {
            let claimed = try await repository.claimDue(at: clock.now(), lease: Self.lease, limit: Self.claimLimit)
            guard !claimed.isEmpty else { break }
            let outcomes = await withTaskGroup(of: (ClaimedWebhookDelivery, WebhookDelivery.Attempt).self) { group in
                for delivery in claimed {
                    group.addTask {
                        let attempt = await withSpan("webhook.deliver", ofKind: .client) { span in
                            span.attributes["hale.webhook.endpoint"] = delivery.endpoint.id.uuidString.lowercased()
                            return await send(delivery, with: http)
                        }
                        return (delivery, attempt)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            for (delivery, attempt) in outcomes {
                let outcome = outcome(of: attempt, after: delivery.attempts)
                try await repository.record(delivery, outcome, attempt: attempt)
                let name: String
                switch outcome {
                case .delivered: (report.delivered, name) = (report.delivered + 1, "delivered")
                case .retry: (report.retried, name) = (report.retried + 1, "retried")
                case .failed: (report.failed, name) = (report.failed + 1, "failed")
                }
                Counter(label: "hale_webhook_deliveries_total", dimensions: [("outcome", name)]).increment()
                if attempt.error != nil {
                    logger.notice(
                        "webhook delivery failed",
                        metadata: [
                            "endpoint": "\(delivery.endpoint.id)", "message": "\(delivery.messageID)",
                            "reason": "\(attempt.error ?? "")", "attempts": "\(delivery.attempts)",
                        ])
                }
            }
        }
        return report
    }

    private func outcome(of attempt: WebhookDelivery.Attempt, after attempts: Int) -> WebhookDeliveryOutcome {
        guard attempt.error != nil else { return .delivered }
        guard attempts <= settings.retrySchedule.count else { return .failed }
        let wait = settings.retrySchedule[attempts - 1]
        return .retry(at: clock.now().addingTimeInterval(wait.timeInterval))
    }

    /// Posts the event, signed with each live secret; the try as recorded.
    func send(_ delivery: ClaimedWebhookDelivery, with http: HTTPClient) async -> WebhookDelivery.Attempt {
        let started = clock.now()
        let began = ContinuousClock.now
        func attempt(_ code: Int?, _ error: String?) -> WebhookDelivery.Attempt {
            let elapsed = ContinuousClock.now - began
            return WebhookDelivery.Attempt(
                attemptedAt: started, statusCode: code, error: error,
                milliseconds: Int(
                    elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
        }
        let secrets: [String]
        do {
            secrets = try self.secrets(of: delivery.endpoint, at: started)
        } catch {
            return attempt(nil, "secret_unreadable")
        }
        var request = HTTPClientRequest(url: delivery.endpoint.url)
        request.method = .POST
        let timestamp = Int(started.timeIntervalSince1970)
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Hale-Webhooks/1")
        request.headers.add(name: "webhook-id", value: delivery.messageID)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(
            name: "webhook-signature",
            value: WebhookSignature.header(
                id: delivery.messageID, timestamp: timestamp, body: delivery.payload, secrets: secrets))
        request.body = .bytes(ByteBuffer(string: delivery.payload))
        do {
            let response = try await http.execute(request, timeout: .init(settings.timeout))
            _ = try? await response.body.collect(upTo: 64 << 10)
            let code = Int(response.status.code)
            return attempt(code, (200..<300).contains(code) ? nil : "http_\(code)")
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return attempt(nil, "timeout")
        } catch {
            return attempt(nil, "unreachable")
        }
    }

    /// The endpoint's secrets that sign now: its current one, then the one before it while it overlaps.
    private func secrets(of endpoint: WebhookEndpointRecord, at date: Date) throws -> [String] {
        let purpose = WebhookEndpointRecord.purpose(of: endpoint.id.uuidString)
        var secrets = [try SealedSecret.open(endpoint.secretSealed, purpose: purpose, sealer: sealer)]
        if let previous = endpoint.previousSecretSealed, let until = endpoint.previousSecretUntil, until > date {
            secrets.append(try SealedSecret.open(previous, purpose: purpose, sealer: sealer))
        }
        return secrets
    }
}

extension TimeAmount {
    /// The amount of `duration`, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
