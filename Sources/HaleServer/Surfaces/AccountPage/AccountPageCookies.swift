import Vapor

/// The account page's two cookies, both `HttpOnly`, `SameSite=Strict` and scoped to `/account`:
/// - the session (`hale_account`): a session cookie, ended by the browser or by signing out;
/// - the browser's installation id (`hale_installation`): which device record the browser is, kept 400 days
///   (browsers' cap), so every sign-in from one browser lands on one device.
///
/// They are `Secure` when Hale is reached over HTTPS, as `server.publicURL` says: never decided by the request's
/// `Host`, which a reverse proxy may rewrite to its upstream's `127.0.0.1:8080`. A developer's `http://localhost`
/// (the default public URL) gets cookies without `Secure`, which browsers would drop there.
enum AccountPageCookies {
    static let session = "hale_account"
    static let installation = "hale_installation"
    static let path = "/account"
    static let installationLifetime = 400 * 24 * 3600

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
            isSecure: request.hale.configuration.server.isPublicHTTPS, isHTTPOnly: true, sameSite: .strict)
    }
}
