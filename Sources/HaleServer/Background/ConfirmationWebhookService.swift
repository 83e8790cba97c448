import Vapor

/// Delivers confirmation answers to the app backend's webhook, when one is configured. Any number of instances may
/// run it: each webhook is claimed by one of them at a time (`SKIP LOCKED` on PostgreSQL).
enum ConfirmationWebhookService {
    static func job(every interval: Duration) -> PeriodicJob {
        PeriodicJob(every: interval) { application in
            let webhooks = application.hale.confirmationWebhooks
            let logger = application.logger
            return {
                guard let webhooks else { return }
                do {
                    let report = try await webhooks.deliverDue(logger: logger)
                    if report != ConfirmationWebhooks.Report() {
                        logger.info(
                            "confirmation webhook pass",
                            metadata: [
                                "delivered": "\(report.delivered)", "retried": "\(report.retried)",
                                "dead": "\(report.dead)",
                            ])
                    }
                } catch {
                    logger.warning("confirmation webhook pass failed: \(HaleErrorMiddleware.loggable(error))")
                }
            }
        }
    }
}
