import PostgresNIO
import Vapor

/// The one place where errors become responses.
///
/// A `HaleError` is rendered in the shape of the surface that owns the path. Vapor's own client errors (bad JSON,
/// wrong content type, oversized body, unknown route) become `HaleError`s with their message. Anything else is a
/// bug: it is logged with the request id and answered with a 500 in the surface's shape that says only "Internal
/// server error", so a client parses it as any error and never sees internals.
struct HaleErrorMiddleware: AsyncMiddleware {
    let renderers: ErrorRenderers

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            let renderer = renderers.renderer(for: request.url.path)
            guard var domainError = Self.domainError(for: error, wordedBy: renderer) else {
                request.logger.error("unhandled error: \(Self.loggable(error))")
                return renderer.render(.internalError, for: request)
            }
            if domainError.code == .payloadTooLarge, error is any AbortError {
                domainError = BodyLimit.tooLarge(for: request)
            }
            let response = renderer.render(domainError, for: request)
            if let seconds = domainError.retryAfterSeconds {
                response.headers.replaceOrAdd(name: .retryAfter, value: String(seconds))
            }
            if let challenge = domainError.bearerChallenge {
                response.headers.replaceOrAdd(name: .wwwAuthenticate, value: challenge)
            }
            return response
        }
    }

    static func domainError(for error: any Error, wordedBy renderer: any ErrorRenderer = CoreErrorRenderer())
        -> HaleError?
    {
        switch error {
        case let error as HaleError:
            return error
        case let error as ImplausibleHealthData:
            return renderer.domainError(for: error)
        case let error as InvalidInput:
            return renderer.domainError(for: error)
        case let error as DecodingError:
            return .invalidRequest(DecodingErrorMessage.describe(error))
        case let error as any AbortError where error.status.code < 500:
            return HaleError(
                code(for: error.status), HaleError.Kind(httpStatus: Int(error.status.code)), message: error.reason)
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

    /// What an unexpected error says in the log. Coding errors describe the value they failed on, which can be a
    /// health sample or a token, so only their kind and coding path are logged. PostgreSQL's errors carry the row
    /// they failed on (`Key (token_hash)=(…) already exists`) and the value they could not read, so only the SQL
    /// state and the names of the table and constraint are.
    static func loggable(_ error: any Error) -> String {
        switch error {
        case let error as EncodingError:
            if case .invalidValue(_, let context) = error { return "EncodingError at \(path(context.codingPath))" }
            return "EncodingError"
        case let error as DecodingError:
            return "DecodingError (\(type(of: error)))"
        case let error as PSQLError:
            let info = error.serverInfo
            let fields: [(String, PSQLError.ServerInfo.Field)] = [
                ("sqlState", .sqlState), ("table", .tableName), ("constraint", .constraintName),
            ]
            let named = fields.compactMap { name, field in info?[field].map { "\(name)=\($0)" } }
            return (["PSQLError \(error.code)"] + named).joined(separator: " ")
        default:
            return String(reflecting: error)
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map(\.stringValue).joined(separator: ".")
    }
}
