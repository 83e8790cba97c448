import Tracing
import Vapor

/// A server span per request, named for its route (`POST /api/v1/confirmations/:confirmationID/answer`), never for
/// its path: identifiers, codes and queries stay out of traces. It continues the trace a client's `traceparent`
/// names (W3C Trace Context), and the route's work runs in it, so database transactions, provider calls, push and
/// webhook deliveries made for the request are its children. With no tracer bootstrapped (`tracing.otlpEndpoint`
/// empty) it costs next to nothing.
struct RequestTracingMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        var parent = request.serviceContext
        InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HeaderExtractor())
        let route = request.route.map { "/" + $0.path.map(\.description).joined(separator: "/") } ?? "unmatched"
        return try await withSpan("\(request.method.rawValue) \(route)", context: parent, ofKind: .server) { span in
            request.serviceContext = span.context
            defer { request.serviceContext = parent }
            span.updateAttributes { attributes in
                attributes["http.request.method"] = request.method.rawValue
                attributes["http.route"] = route
                if case .string(let id)? = request.logger[metadataKey: "request-id"] {
                    attributes["hale.request_id"] = id
                }
            }
            do {
                let response = try await next.respond(to: request)
                span.attributes["http.response.status_code"] = Int(response.status.code)
                if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
                return response
            } catch {
                // Errors are rendered further in, so this is a failure of the rendering itself; its text stays out.
                span.setStatus(SpanStatus(code: .error))
                throw error
            }
        }
    }
}

/// Reads `traceparent` and `tracestate` (and whatever the configured propagator asks for) from the request.
private struct HeaderExtractor: Extractor {
    func extract(key name: String, from headers: HTTPHeaders) -> String? {
        let values = headers[name]
        return values.isEmpty ? nil : values.joined(separator: ",")
    }
}
