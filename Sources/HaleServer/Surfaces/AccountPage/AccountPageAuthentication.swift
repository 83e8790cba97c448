import Vapor

/// The account page's authenticator: its session cookie, and for every request that changes something its CSRF
/// token (`X-CSRF-Token`) and a same-origin `Origin`. Bearer tokens are not accepted here, and the cookie is accepted
/// nowhere else.
///
/// A recovery session's cookie passes only where `recovery` is set: what the page needs to add one passkey.
struct AccountPageAuthentication: AsyncMiddleware {
    static let csrfHeader = "X-CSRF-Token"
    let sessions: AccountPageSessions
    var recovery = false

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try Self.checkOrigin(request, allowed: sessions.origins)
        guard let cookie = request.cookies[AccountPageCookies.session]?.string, !cookie.isEmpty else {
            throw Self.signedOut
        }
        let identity = try await sessions.identity(cookie: cookie)
        if Self.changesState(request) {
            guard let presented = request.headers.first(name: Self.csrfHeader),
                AccountPageSessions.isCSRFToken(presented, of: cookie)
            else {
                throw HaleError(
                    .csrfRejected, .forbidden,
                    message: "This request needs the page's CSRF token in \(Self.csrfHeader).")
            }
        }
        if identity.isRecovery && !recovery {
            throw HaleError(
                .recoverySessionRestricted, .forbidden,
                message: "A recovery session can only add a passkey; sign in with it afterwards.")
        }
        request.auth.login(identity)
        return try await next.respond(to: request)
    }

    /// A request that changes state and names an origin must name one the page is served from: a cross-site form
    /// or fetch is refused before anything else is read. Browsers send `Origin` on every such request.
    static func checkOrigin(_ request: Request, allowed origins: Set<String>) throws {
        guard changesState(request), let origin = request.headers.first(name: .origin) else { return }
        guard origins.contains(origin) else {
            throw HaleError(.csrfRejected, .forbidden, message: "Requests from another origin are refused here.")
        }
    }

    static func changesState(_ request: Request) -> Bool {
        ![.GET, .HEAD, .OPTIONS].contains(request.method)
    }

    static let signedOut = HaleError(.unauthorized, .unauthenticated, message: "Sign in on the account page first.")
}
