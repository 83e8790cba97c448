import Vapor

/// The account page's cookies, all `HttpOnly`, `SameSite=Strict` and scoped to `/account`:
/// - the session (`hale_account`): a session cookie, ended by the browser or by signing out;
/// - the browser's installation id (`hale_installation`): which device record the browser is, kept 400 days
///   (browsers' cap), so every sign-in from one browser lands on one device;
/// - a waiting recovery's id and claim token (`hale_recovery`), so the browser that started a recovery by email,
///   and only it, claims it once the wait is over; kept until the recovery lapses.
///
/// They are `Secure` unless `server.publicURL` says Hale is reached over plain HTTP: never decided by the request's
/// `Host`, which a reverse proxy may rewrite to its upstream's `127.0.0.1:8080`. With `server.publicURL` unset they
/// are `Secure` too, so a production server upgraded without setting it fails closed; Chromium and Firefox keep
/// `Secure` cookies from `http://localhost`, so development works unchanged (Safari needs `http://localhost:8080` set).
enum AccountPageCookies {
    static let session = "hale_account"
    static let installation = "hale_installation"
    static let path = "/account"
    static let installationLifetime = 400 * 24 * 3600
    static let recovery = "hale_recovery"

    /// Sets the waiting recovery's cookie on `response`, for `maxAge` seconds.
    static func setRecovery(_ value: String, maxAge: Int, on response: Response, for request: Request) {
        response.cookies[recovery] = cookie(value, maxAge: maxAge, for: request)
    }

    /// Expires the waiting recovery's cookie.
    static func clearRecovery(on response: Response, for request: Request) {
        response.cookies[recovery] = cookie("", maxAge: 0, for: request)
    }

    /// Sets the session cookie on `response`.
    static func setSession(_ value: String, on response: Response, for request: Request) {
        response.cookies[session] = cookie(value, maxAge: nil, for: request)
    }

    /// Expires the session cookie.
    static func clearSession(on response: Response, for request: Request) {
        response.cookies[session] = cookie("", maxAge: 0, for: request)
    }

    /// The browser's installation id: the cookie it sent, or a new one set on `response`.
    static func installation(of request: Request, settingOn response: Response) -> String {
        if let sent = request.cookies[installation]?.string,
            (try? SignInDevices.installation(sent)) != nil
        {
            return sent
        }
        let created = OpaqueToken.generate()
        response.cookies[installation] = cookie(created, maxAge: installationLifetime, for: request)
        return created
    }

    private static func cookie(_ value: String, maxAge: Int?, for request: Request) -> HTTPCookies.Value {
        HTTPCookies.Value(
            string: value, maxAge: maxAge, path: path,
            isSecure: request.hale.configuration.server.cookiesAreSecure, isHTTPOnly: true, sameSite: .strict)
    }
}
