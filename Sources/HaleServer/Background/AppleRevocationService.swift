import Vapor

/// Revokes queued Apple refresh tokens once a minute, when Apple's REST API is configured. Any number of instances
/// may run it: each row is claimed by one of them at a time.
enum AppleRevocationService {
    static func job(every interval: Duration = .seconds(60)) -> PeriodicJob {
        PeriodicJob(every: interval) { application in
            guard let tokens = application.hale.socialSignIn.appleTokens else { return nil }
            let logger = application.logger
            return {
                do {
                    try await tokens.revokeDue(logger: logger)
                } catch {
                    logger.warning("apple token revocation pass failed: \(String(reflecting: type(of: error)))")
                }
            }
        }
    }
}
