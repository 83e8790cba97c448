import Vapor

/// Deletes device-key failure counts that can lock nothing any more, once an hour, so the table holds only the
/// networks failing now: an attacker who spreads failures over many networks leaves rows that go away. Any number
/// of instances may run it: each pass is one `DELETE`.
enum SignInFailurePurgeService {
    static func job(every interval: Duration = .seconds(3600)) -> PeriodicJob {
        PeriodicJob(every: interval) { application in
            let devices = application.hale.devices
            let logger = application.logger
            return { await purge(devices, logger: logger) }
        }
    }

    private static func purge(_ devices: Devices, logger: Logger) async {
        do {
            let deleted = try await devices.forgetStaleSignInFailures()
            if deleted > 0 {
                logger.debug("forgot stale device-key sign-in failures", metadata: ["count": "\(deleted)"])
            }
        } catch {
            logger.warning("could not forget stale device-key sign-in failures: \(HaleErrorMiddleware.loggable(error))")
        }
    }
}
