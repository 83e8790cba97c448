import HealthSamples
import Vapor

/// Renders a domain error in one surface's documented shape, worded in its seed's terms.
public protocol ErrorRenderer: Sendable {
    /// The response for `error`.
    func render(_ error: HaleError, for request: Request) -> Response
    /// Implausible health data as this surface words it; Hale's own wording unless the surface has one.
    func domainError(for implausible: ImplausibleHealthData) -> HaleError
    /// A refused value as this surface words it; Hale's own wording (`InvalidInput.message`) unless the surface has
    /// one.
    func domainError(for invalid: InvalidInput) -> HaleError
}

extension ErrorRenderer {
    /// Hale's own wording: `InvalidInput.message`.
    public func domainError(for invalid: InvalidInput) -> HaleError {
        .invalidRequest(invalid.message)
    }

    /// Hale's own wording: a challenge's goal by the challenge's field, anything else by its type and limit.
    public func domainError(for implausible: ImplausibleHealthData) -> HaleError {
        switch implausible.reason {
        case .goalTooHigh(let type, let largest, let maximumPerDay):
            let perDay = HealthPlausibility.describe(maximumPerDay: maximumPerDay, of: type)
            return .invalidRequest(
                "goal must be at most \(JavaScriptNumber.string(largest)): \(perDay) over the challenge's days")
        case .valueTooHigh(let type, let maximumPerDay):
            let perDay = HealthPlausibility.describe(maximumPerDay: maximumPerDay, of: type)
            return .invalidRequest("\(type.rawValue) is implausibly high: at most \(perDay)")
        case .lastsTooLong(let longest):
            return .invalidRequest("A sample lasts at most \(HealthPlausibility.describe(seconds: longest))")
        case .startsTooEarly(let oldest):
            return .invalidRequest("A sample starts within the last \(HealthPlausibility.describe(seconds: oldest))")
        case .startsTooLate(let newest):
            return .invalidRequest("A sample starts at most \(HealthPlausibility.describe(seconds: newest)) ahead")
        }
    }
}

/// Hale's own error shape, used on its designed routes: `{"success": false, "error": {"code", "message"}}`.
public struct CoreErrorRenderer: ErrorRenderer {
    struct Body: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
        }
        var success = false
        let error: Detail
    }

    /// Creates the renderer.
    public init() {}

    /// See `ErrorRenderer`.
    public func render(_ error: HaleError, for request: Request) -> Response {
        Response.json(
            Body(error: .init(code: error.code.rawValue, message: error.message)),
            status: HTTPResponseStatus(statusCode: error.status))
    }
}
