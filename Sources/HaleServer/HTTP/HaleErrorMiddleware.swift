import Vapor

/// The one place where errors become responses.
///
/// A `HaleError` is rendered in the shape of the surface that owns the path. Vapor's own client errors (bad JSON,
/// wrong content type, oversized body, unknown route) become `HaleError`s with their message. Anything else is a
/// bug: it is logged with the request id and answered with an empty 500, so a client never sees internals.
struct HaleErrorMiddleware: AsyncMiddleware {
    let renderers: ErrorRenderers

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            guard let domainError = Self.domainError(for: error) else {
                request.logger.error("unhandled error: \(String(reflecting: error))")
                return Response(status: .internalServerError)
            }
            let response = renderers.renderer(for: request.url.path).render(domainError, for: request)
            if let seconds = domainError.retryAfterSeconds {
                response.headers.replaceOrAdd(name: .retryAfter, value: String(seconds))
            }
            return response
        }
    }

    static func domainError(for error: any Error) -> HaleError? {
        switch error {
        case let error as HaleError:
            return error
        case let error as DecodingError:
            return .invalidRequest(DecodingErrorMessage.describe(error))
        case let error as any AbortError where error.status.code < 500:
            return HaleError(code(for: error.status), status: Int(error.status.code), message: error.reason)
        default:
            return nil
        }
    }

    private static func code(for status: HTTPResponseStatus) -> HaleError.Code {
        switch status {
        case .payloadTooLarge: .payloadTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .unauthorized: .unauthorized
        default: .invalidRequest
        }
    }
}
