import Vapor

/// Hale's errors on `/rest/v1` in PostgREST's shape: a refused bearer token as PostgREST refuses a JWT
/// (`PGRST301`, 401), a missing one as its anonymous access refused (`PGRST302`), a path it does not serve as an
/// unknown relation (`PGRST205`, 404). Everything else keeps Hale's code (`CONSENT_REQUIRED`,
/// `ATTESTATION_REQUIRED`, `RATE_LIMITED`, a bug's `INTERNAL_ERROR`) and message.
struct PostgRESTErrorRenderer: ErrorRenderer {
    func render(_ error: HaleError, for request: Request) -> Response {
        let converted: PostgRESTError
        switch (error.status, error.code) {
        case (401, .unauthorized):
            converted = PostgRESTError(code: "PGRST302", status: 401, message: "Anonymous access is disabled")
        case (401, .tokenInvalid), (401, .tokenExpired), (401, .tokenReused):
            converted = PostgRESTError(code: "PGRST301", status: 401, message: error.message)
        case (404, _), (405, _):
            converted = PostgRESTError(
                code: "PGRST205", status: 404, message: "Could not find the path \(request.url.path.prefix(128))",
                hint:
                    "Hale serves health_connections, health_sync_logs, activity_logs and two RPCs; see docs/api/supabase.md"
            )
        default:
            converted = PostgRESTError(code: error.code.rawValue, status: error.status, message: error.message)
        }
        return converted.response(for: request)
    }
}
