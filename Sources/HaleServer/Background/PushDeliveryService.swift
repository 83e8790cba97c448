import Vapor

/// Delivers the push outbox every `push.deliveryInterval`, and deletes finished messages after a week. Any number of
/// instances may run it: each message is claimed by one of them at a time (`SKIP LOCKED` on PostgreSQL).
enum PushDeliveryService {
    static func job(every interval: Duration) -> PeriodicJob {
        PeriodicJob(every: interval) { application in
            let delivery = application.hale.pushDelivery
            let logger = application.logger
            return { await pass(delivery, logger: logger) }
        }
    }

    private static func pass(_ delivery: PushDelivery, logger: Logger) async {
        do {
            let report = try await delivery.deliverDue(logger: logger)
            if report != PushDelivery.Report() {
                logger.info(
                    "push delivery pass",
                    metadata: [
                        "sent": "\(report.sent)", "retried": "\(report.retried)", "dead": "\(report.dead)",
                        "skipped": "\(report.skipped)",
                    ])
            }
            _ = try await delivery.purgeFinished()
        } catch {
            logger.warning("push delivery pass failed: \(HaleErrorMiddleware.loggable(error))")
        }
    }
}
