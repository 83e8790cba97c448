import Vapor

/// Writes the personal access token uses `PersonalAccessTokens.verify` remembers in memory, once a minute and once
/// more at shutdown, so that authenticating a request never writes. Any number of instances may run it: a use
/// never moves a token's last use back.
enum PersonalAccessTokenUseService {
    static func job(every interval: Duration = .seconds(60)) -> PeriodicJob {
        PeriodicJob(every: interval, finalPassAtShutdown: true) { application in
            let tokens = application.hale.personalAccessTokens
            let logger = application.logger
            return { await write(tokens, logger: logger) }
        }
    }

    private static func write(_ tokens: PersonalAccessTokens, logger: Logger) async {
        do {
            let written = try await tokens.recordPendingUses()
            if written > 0 {
                logger.debug("recorded personal access token uses", metadata: ["tokens": "\(written)"])
            }
        } catch {
            logger.warning(
                "could not record personal access token uses; kept for the next pass: \(HaleErrorMiddleware.loggable(error))"
            )
        }
    }
}
