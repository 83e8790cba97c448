import Vapor

/// Deletes health data that may no longer be kept, every 30 seconds, so revoked data is gone within a minute. Any
/// number of instances may run it: each deletion claims its rows with `SKIP LOCKED` on PostgreSQL, and a row
/// deleted is simply gone.
enum HealthRetentionService {
    static func job(every interval: Duration = .seconds(30)) -> PeriodicJob {
        PeriodicJob(every: interval) { application in
            let retention = application.hale.healthRetention
            let logger = application.logger
            return { await pass(retention, logger: logger) }
        }
    }

    private static func pass(_ retention: HealthRetention, logger: Logger) async {
        do {
            let unconsented = try await retention.deleteUnconsented()
            let expired = try await retention.deleteExpired()
            if unconsented + expired > 0 {
                logger.info(
                    "deleted health data", metadata: ["unconsented": "\(unconsented)", "expired": "\(expired)"])
            }
        } catch {
            logger.warning("could not delete expired health data: \(HaleErrorMiddleware.loggable(error))")
        }
    }
}
