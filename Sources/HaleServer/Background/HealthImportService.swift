import Vapor

/// Imports uploaded Apple Health exports, one at a time, looking every `interval` (`health.imports.worker`). Any
/// number of instances may run it: each import is claimed by one of them at a time (`SKIP LOCKED` on PostgreSQL),
/// and one stopped in the middle is resumed from its checkpoint by the next claim.
enum HealthImportService {
    static func job(every interval: Duration = .seconds(5)) -> PeriodicJob {
        PeriodicJob(every: interval) { application in
            let imports = application.hale.healthImports
            let logger = application.logger
            return { await pass(imports, logger: logger) }
        }
    }

    private static func pass(_ imports: HealthImports, logger: Logger) async {
        do {
            while !Task.isCancelled {
                let outcome = try await imports.processNext(logger: logger)
                if outcome == .idle { break }
                if case .failed(let id, let code) = outcome {
                    logger.notice("health import failed", metadata: ["import": "\(id)", "code": "\(code)"])
                }
            }
            _ = try await imports.sweepFiles()
        } catch {
            logger.warning("health import pass failed: \(HaleErrorMiddleware.loggable(error))")
        }
    }
}
