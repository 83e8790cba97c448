import HealthSamples
import Vapor

/// Seed 000's daily sync (`POST /api/mobile/health/sync`): Hale's own error shape, with the day's values named by
/// their place in the body, `data.steps`, `data.distance` and `data.date`.
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

    func domainError(for invalid: InvalidInput) -> HaleError {
        guard Self.dataFields.contains(invalid.field) else { return .invalidRequest(invalid.message) }
        return .invalidRequest(InvalidInput("data.\(invalid.field)", invalid.rule).message)
    }

    /// The values the body carries under `data`.
    static let dataFields: Set = ["steps", "distance", "date"]

    func render(_ error: HaleError, for request: Request) -> Response {
        CoreErrorRenderer().render(error, for: request)
    }
}
