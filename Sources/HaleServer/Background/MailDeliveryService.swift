import Vapor

/// Delivers the mail outbox every `push.deliveryInterval`, and deletes finished messages after a week. Any number of
/// instances may run it: each message is claimed by one of them at a time (`SKIP LOCKED` on PostgreSQL).
enum MailDeliveryService {
    static func job(every interval: Duration) -> PeriodicJob {
        PeriodicJob(every: interval) { application in
            let delivery = application.hale.mailDelivery
            let logger = application.logger
            return { await pass(delivery, logger: logger) }
        }
    }

    private static func pass(_ delivery: MailDelivery, logger: Logger) async {
        do {
            let report = try await delivery.deliverDue(logger: logger)
            if report != MailDelivery.Report() {
                logger.info(
                    "mail delivery pass",
                    metadata: ["sent": "\(report.sent)", "retried": "\(report.retried)", "dead": "\(report.dead)"])
            }
            _ = try await delivery.purgeFinished()
        } catch {
            logger.warning("mail delivery pass failed: \(HaleErrorMiddleware.loggable(error))")
        }
    }
}
