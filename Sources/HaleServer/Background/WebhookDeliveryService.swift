import Synchronization
import Vapor

/// Delivers the webhook outbox every `webhooks.deliveryInterval`, and once an hour deletes events older than
/// `webhooks.retention` whose deliveries have ended. Any number of instances may run it: each delivery is claimed by
/// one of them at a time (`SKIP LOCKED` on PostgreSQL), and an account's events reach an endpoint in order.
enum WebhookDeliveryService {
    static func job(every interval: Duration) -> PeriodicJob {
        PeriodicJob(every: interval) { application in
            let webhooks = application.hale.webhooks
            let logger = application.logger
            let lastPurge = Mutex(ContinuousClock.now - .seconds(3_600))
            return {
                do {
                    let report = try await webhooks.deliverDue(logger: logger)
                    if report != Webhooks.Report() {
                        logger.info(
                            "webhook delivery pass",
                            metadata: [
                                "delivered": "\(report.delivered)", "retried": "\(report.retried)",
                                "failed": "\(report.failed)",
                            ])
                    }
                    let due = lastPurge.withLock { last in
                        guard ContinuousClock.now - last >= .seconds(3_600) else { return false }
                        last = .now
                        return true
                    }
                    if due { _ = try await webhooks.purge() }
                } catch {
                    logger.warning("webhook delivery pass failed: \(HaleErrorMiddleware.loggable(error))")
                }
            }
        }
    }
}
