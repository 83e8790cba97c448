import Vapor

/// Seed 001's error shape: `{"statusCode": 400, "message": "…", "error": "Bad Request"}`.
struct NestErrorRenderer: ErrorRenderer {
    struct Body: Encodable {
        let statusCode: Int
        let message: String
        let error: String
    }

    func render(_ error: HaleError, for request: Request) -> Response {
        let status = HTTPResponseStatus(statusCode: error.status)
        return Response.json(
            Body(statusCode: error.status, message: error.message, error: status.reasonPhrase), status: status)
    }
}
