import Foundation
import Vapor

extension FakeSocialProvider {
    /// An OAuth access token Google's fake token info and user info know.
    public struct GoogleUser: Sendable {
        /// The Google account's `sub`.
        public var subject: String
        /// The profile's email.
        public var email: String?
        /// Whether Google verified it.
        public var emailVerified = true
        /// The profile's name.
        public var name = "Ana"
        /// The client the token was issued to (`aud` and `azp`).
        public var clientID = FakeSocialProvider.googleClientID
        /// When the token expires.
        public var expiresAt: Date = Date().addingTimeInterval(3600)

        /// A valid token's user.
        public init(subject: String, email: String?) {
            self.subject = subject
            self.email = email
        }
    }

    /// Makes `token` a Google OAuth access token of `user`.
    public func addGoogleAccessToken(_ token: String, _ user: GoogleUser) {
        state.withLock { $0.googleUsers[token] = user }
    }

    /// Google's token info and user info, answering as Google does: `exp` and `expires_in` as strings, and 400
    /// `invalid_token` (token info) or 401 (user info) for a token it does not know.
    func googleAccessTokenRoutes() {
        app.get("google", "tokeninfo") { [self] request in
            count(request)
            let token = request.query[String.self, at: "access_token"] ?? ""
            guard let user = state.withLock({ $0.googleUsers[token] }) else {
                return Self.json(
                    ["error": "invalid_token", "error_description": "Invalid Value"], status: .badRequest)
            }
            let expiry = Int(user.expiresAt.timeIntervalSince1970)
            var info: [String: Any] = [
                "azp": user.clientID, "aud": user.clientID, "sub": user.subject,
                "scope": "openid https://www.googleapis.com/auth/userinfo.email", "exp": String(expiry),
                "expires_in": String(max(0, expiry - Int(Date().timeIntervalSince1970))), "access_type": "online",
            ]
            info["email"] = user.email
            if user.email != nil { info["email_verified"] = user.emailVerified ? "true" : "false" }
            return Self.json(info)
        }
        app.get("google", "userinfo") { [self] request in
            count(request)
            let token = request.query[String.self, at: "access_token"] ?? ""
            guard let user = state.withLock({ $0.googleUsers[token] }) else {
                return Self.json(
                    ["error": "invalid_request", "error_description": "Invalid Credentials"], status: .unauthorized)
            }
            var profile: [String: Any] = ["sub": user.subject, "name": user.name, "given_name": user.name]
            profile["email"] = user.email
            if user.email != nil { profile["email_verified"] = user.emailVerified }
            return Self.json(profile)
        }
    }
}
