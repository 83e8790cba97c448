import Crypto

/// The two Graph API calls that verify a Facebook user access token; `TokenCheckingAPI.facebookGraph` reads their answers.
struct FacebookGraph: Sendable {
    /// The Graph API base: origin and, if configured, version.
    let baseURL: String
    /// The app id.
    let appID: String
    /// The app secret.
    let appSecret: String

    /// The Graph API for `configuration`, or nil without an app secret.
    init?(_ configuration: SocialProvidersConfiguration, appID: String) {
        guard let appSecret = configuration.facebookAppSecret, !appSecret.isEmpty else { return nil }
        var base = configuration.facebookGraphURL
        while base.hasSuffix("/") { base.removeLast() }
        if !configuration.facebookGraphVersion.isEmpty { base += "/" + configuration.facebookGraphVersion }
        self.baseURL = base
        self.appID = appID
        self.appSecret = appSecret
    }

    /// `GET /debug_token`, inspecting `accessToken` with the app token `appID|appSecret`.
    func debugTokenURL(for accessToken: String) -> String {
        URLQuery.url(
            baseURL + "/debug_token", [("input_token", accessToken), ("access_token", "\(appID)|\(appSecret)")])
    }

    /// `GET /me?fields=id,name,email` as the user, with the `appsecret_proof` Facebook asks servers to send
    /// ("Securing Graph API Requests"): HMAC-SHA256 of the access token keyed with the app secret, in hex.
    func profileURL(for accessToken: String) -> String {
        let proof = HMAC<SHA256>.authenticationCode(
            for: Array(accessToken.utf8), using: SymmetricKey(data: Array(appSecret.utf8)))
        let hex = proof.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return URLQuery.url(
            baseURL + "/me",
            [("fields", "id,name,email"), ("access_token", accessToken), ("appsecret_proof", hex)])
    }
}
