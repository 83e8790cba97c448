import HealthSamples
import Vapor

/// Seed 001's error shape: `{"statusCode": 400, "message": "…", "error": "Bad Request"}`.
struct NestErrorRenderer: ErrorRenderer {
    struct Body: Encodable {
        let statusCode: Int
        let message: String
        let error: String
    }

    /// Seed 001's messages, verbatim, for a day's total over its maximum.
    func domainError(for implausible: ImplausibleHealthData) -> HaleError {
        guard case .valueTooHigh(let type, _) = implausible.reason else {
            return CoreErrorRenderer().domainError(for: implausible)
        }
        switch type {
        case .steps: return .invalidRequest("Step count is implausibly high")
        case .calories: return .invalidRequest("Calorie count is implausibly high")
        case .distance: return .invalidRequest("Distance is implausibly high")
        default: return .invalidRequest("Duration is implausibly high")
        }
    }

    /// class-validator's words, which seed 001's NestJS server answers with: `@IsIn`'s "must be one of the following
    /// values" and `@IsDateString`'s "must be a valid ISO 8601 date string".
    func domainError(for invalid: InvalidInput) -> HaleError {
        switch invalid.rule {
        case .oneOf(let names):
            .invalidRequest("\(invalid.field) must be one of the following values: \(names.joined(separator: ", "))")
        case .day: .invalidRequest("\(invalid.field) must be a valid ISO 8601 date string (YYYY-MM-DD)")
        default: .invalidRequest(invalid.message)
        }
    }

    func render(_ error: HaleError, for request: Request) -> Response {
        let status = HTTPResponseStatus(statusCode: error.status)
        return Response.json(
            Body(statusCode: error.status, message: error.message, error: status.reasonPhrase), status: status)
    }
}
