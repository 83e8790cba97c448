import Vapor

/// Writes the audit trail's head to the log once an hour, at `info`: `audit head` with `anchor=SEQUENCE:HASH`.
///
/// The log leaves the database's reach (a log shipper, a SIEM), so whoever deletes the chain's newest events cannot
/// take back the anchors the log kept; `hale audit verify --anchor` checks the chain against any of them. The head
/// names no account, only a sequence and a hash.
enum AuditHeadLogService {
    static func job(every interval: Duration = .seconds(3600)) -> PeriodicJob {
        PeriodicJob(every: interval) { application in
            let audit = application.hale.audit
            let logger = application.logger
            return { await log(audit, logger: logger) }
        }
    }

    static func log(_ audit: AuditTrail, logger: Logger) async {
        do {
            guard let head = try await audit.head() else { return }
            logger.info("audit head", metadata: ["anchor": "\(head)"])
        } catch {
            logger.warning("could not read the audit trail's head: \(HaleErrorMiddleware.loggable(error))")
        }
    }
}
