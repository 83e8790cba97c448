import Vapor

/// The one bearer authenticator of every protected route: it accepts access tokens and personal access tokens alike,
/// and on seed 000's routes Firebase ID tokens too, when Firebase is configured.
struct BearerAuthMiddleware: AsyncMiddleware {
    /// What verifies the presented token.
    let verifier: BearerTokenVerifier
    /// Whether a request without a bearer token may pass, unauthenticated. A token that is present is always
    /// verified: an invalid one is a 401, never a silent fall-back to anonymous.
    var optional = false
    /// Whether a Firebase ID token is accepted (seed 000's routes, whose apps send one), when `firebase.projectId`
    /// is set.
    var firebase = false
    /// Whether a recovery session's token is accepted: only on the routes that enrol a credential. Everywhere else
    /// it is a 403 `RECOVERY_SESSION_RESTRICTED`.
    var recovery = false

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let bearer = request.headers.bearerAuthorization else {
            guard optional, request.headers[.authorization].isEmpty else {
                var missing = HaleError.missingCredentials
                missing.bearerChallenge = #"Bearer realm="hale""#
                throw missing
            }
            return try await next.respond(to: request)
        }
        let identity: AuthenticatedAccount
        do {
            identity = try await verifier.verify(
                bearer.token, acceptingFirebaseIDTokens: firebase, logger: request.logger)
        } catch var refused as HaleError where refused.kind == .unauthenticated {
            refused.bearerChallenge = #"Bearer realm="hale", error="invalid_token""#
            throw refused
        }
        if identity.isRecovery && !recovery {
            throw HaleError(
                .recoverySessionRestricted, .forbidden,
                message: "A recovery session can only add a passkey or a device key; sign in with it afterwards.")
        }
        request.auth.login(identity)
        return try await next.respond(to: request)
    }
}
