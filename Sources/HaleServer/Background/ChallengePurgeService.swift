import Vapor

/// Deletes server challenges long after they expired, so the table holds only recent ones, once an hour; and with
/// them the other one-time things a client can make Hale store: email codes and lapsed recoveries (requests naming
/// addresses nobody verified included). Any number of instances may run it: each purge is one `DELETE`, and a row
/// deleted twice is simply gone.
enum ChallengePurgeService {
    /// How long after expiry a challenge is kept, so that a late client still gets "expired" rather than "unknown".
    static let retention: Duration = .seconds(86_400)

    static func job(every interval: Duration = .seconds(3600)) -> PeriodicJob {
        PeriodicJob(every: interval) { application in
            let challenges = application.hale.challenges
            let (emails, recoveries) = (application.hale.emailAddresses, application.hale.accountRecoveries)
            let logger = application.logger
            return {
                await purge("expired server challenges", logger: logger) {
                    try await challenges.purge(olderThan: retention)
                }
                await purge("email codes", logger: logger) { try await emails.purgeOldCodes() }
                await purge("lapsed recoveries", logger: logger) { try await recoveries.purgeLapsed() }
            }
        }
    }

    private static func purge(_ what: String, logger: Logger, _ delete: () async throws -> Int) async {
        do {
            let deleted = try await delete()
            if deleted > 0 { logger.debug("purged \(what)", metadata: ["count": "\(deleted)"]) }
        } catch {
            logger.warning("could not purge \(what): \(HaleErrorMiddleware.loggable(error))")
        }
    }
}
