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
struct AccountPageCookies {
    static let session = "hale_account"
    static let installation = "hale_installation"
    static let path = "/account"
    static let installationLifetime = 400 * 24 * 3600
    static let recovery = "hale_recovery"

    /// Whether the cookies are `Secure` (`server.cookiesAreSecure`).
    let secure: Bool

    /// Sets the waiting recovery's cookie on `response`, for `maxAge` seconds.
    func setRecovery(_ value: String, maxAge: Int, on response: Response) {
        response.cookies[Self.recovery] = cookie(value, maxAge: maxAge)
    }

    /// Expires the waiting recovery's cookie.
    func clearRecovery(on response: Response) {
        response.cookies[Self.recovery] = cookie("", maxAge: 0)
    }

    /// Sets the session cookie on `response`.
    func setSession(_ value: String, on response: Response) {
        response.cookies[Self.session] = cookie(value, maxAge: nil)
    }

    /// Expires the session cookie.
    func clearSession(on response: Response) {
        response.cookies[Self.session] = cookie("", maxAge: 0)
    }

    /// The browser's installation id: the cookie it sent, or a new one set on `response`.
    func installation(of request: Request, settingOn response: Response) -> String {
        if let sent = request.cookies[Self.installation]?.string,
            (try? SignInDevices.installation(sent)) != nil
        {
            return sent
        }
        let created = OpaqueToken.generate()
        response.cookies[Self.installation] = cookie(created, maxAge: Self.installationLifetime)
        return created
    }

    private func cookie(_ value: String, maxAge: Int?) -> HTTPCookies.Value {
        HTTPCookies.Value(
            string: value, maxAge: maxAge, path: Self.path, isSecure: secure, isHTTPOnly: true, sameSite: .strict)
    }
}
