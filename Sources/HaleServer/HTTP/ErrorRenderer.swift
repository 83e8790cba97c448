import Vapor

/// Renders a domain error in one surface's documented shape.
public protocol ErrorRenderer: Sendable {
    /// The response for `error`.
    func render(_ error: HaleError, for request: Request) -> Response
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
