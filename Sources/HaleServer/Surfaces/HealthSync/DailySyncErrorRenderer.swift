import HealthSamples
import Vapor

/// Seed 000's daily sync (`POST /api/mobile/health/sync`): Hale's own error shape, with a total over its maximum
/// named by its field in the body, `data.steps` or `data.distance`.
struct DailySyncErrorRenderer: ErrorRenderer {
    /// The path it owns.
    static let path = "/api/mobile/health/sync"

    func domainError(for implausible: ImplausibleHealthData) -> HaleError {
        guard case .valueTooHigh(let type, let maximumPerDay) = implausible.reason else {
            return CoreErrorRenderer().domainError(for: implausible)
        }
        let perDay = HealthPlausibility.describe(maximumPerDay: maximumPerDay, of: type)
        return .invalidRequest("data.\(type.rawValue) is implausibly high: at most \(perDay)")
    }

    func render(_ error: HaleError, for request: Request) -> Response {
        CoreErrorRenderer().render(error, for: request)
    }
}
