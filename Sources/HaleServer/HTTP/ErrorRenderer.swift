import Vapor

/// Renders a domain error in one surface's documented shape.
public protocol ErrorRenderer: Sendable {
    /// The response for `error`.
    func render(_ error: HaleError, for request: Request) -> Response
}

extension ErrorRenderer {
    /// A JSON response with the error's status.
    func json(_ body: some Encodable, status: Int) -> Response {
        let response = Response(status: HTTPResponseStatus(statusCode: status))
        do {
            try response.content.encode(body, as: .json)
        } catch {
            response.body = .empty
        }
        return response
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
        json(Body(error: .init(code: error.code.rawValue, message: error.message)), status: error.status)
    }
}
