import Vapor

/// Words a refusal for want of a fresh sign-in (`FRESH_SIGN_IN_REQUIRED`) as a seed's app already handles one, on
/// that seed's routes: seed 002's `TOKEN_EXPIRED` (its app signs in again), seed 000's Firebase-style
/// `auth/requires-recent-login` (its app re-authenticates, as for Firebase's own sensitive operations). The status,
/// the message and the RFC 9470 challenge stay as they are.
struct FreshSignInWording: AsyncMiddleware {
    let code: HaleError.Code

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let refusal as HaleError where refusal.code == .freshSignInRequired {
            var worded = HaleError(code, refusal.kind, message: refusal.message)
            worded.bearerChallenge = refusal.bearerChallenge
            throw worded
        }
    }
}
