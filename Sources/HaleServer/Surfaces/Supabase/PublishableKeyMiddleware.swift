import ByteEncoding
import Vapor

/// Supabase's gateway check: every request names a publishable key of the app, in the `apikey` header (supabase-py
/// sends `apiKey`; header names are read without regard to case) or query parameter, one of
/// `supabase.publishableKeys`, compared in constant time. It identifies the app, not a person.
struct PublishableKeyMiddleware: AsyncMiddleware {
    let keys: [String]

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let presented = request.headers.first(name: "apikey") ?? request.query[String.self, at: "apikey"] else {
            return PostgRESTError.noAPIKey.response(for: request)
        }
        // Every key is compared, so the time taken says nothing of which one, or how much of one, matched.
        let matches = keys.reduce(false) { $0 || ConstantTime.equals(presented, $1) }
        guard matches else { return PostgRESTError.invalidAPIKey.response(for: request) }
        return try await next.respond(to: request)
    }
}
