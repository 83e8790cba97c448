import Foundation

extension SocialTokenVerifier {
    /// The longest access token accepted; Facebook's are a few hundred characters.
    static let maximumAccessTokenLength = 4096

    /// Verifies a Facebook user access token with `debug_token`, then reads the profile from `/me`.
    func verifyFacebookAccessToken(_ token: String) async throws(SocialTokenError) -> VerifiedIdentity {
        guard let appID = configuration.facebookAppID, let graph = FacebookGraph(configuration, appID: appID) else {
            throw .notConfigured(.facebook)
        }
        guard !token.isEmpty, token.utf8.count <= Self.maximumAccessTokenLength,
            token.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { throw .malformedAccessToken }
        let userID = try await inspect(token, graph: graph)
        let profile = try await ask(graph.profileURL(for: token), of: .facebookGraph)
        guard profile["id"]?.identifier == userID else { throw .profileMismatch }
        let email = profile["email"]?.string
        return VerifiedIdentity(
            provider: .facebook, subject: userID, email: email, emailVerified: false,
            isPrivateRelayEmail: VerifiedIdentity.isPrivateRelay(email), name: profile["name"]?.string)
    }

    /// Asks `debug_token` about `token` and returns the user it was issued to: the token must be a valid user token
    /// of this app that has not expired (`expires_at` 0 means it never does).
    private func inspect(_ token: String, graph: FacebookGraph) async throws(SocialTokenError) -> String {
        let answer = try await ask(graph.debugTokenURL(for: token), of: .facebookGraph)
        guard let data = answer["data"]?.object else { throw .graphMalformed }
        guard data["app_id"]?.identifier == graph.appID else { throw .tokenForAnotherApp }
        guard data["is_valid"] == .bool(true), let userID = data["user_id"]?.identifier, !userID.isEmpty else {
            throw .tokenNotValid
        }
        if let type = data["type"], type != .string("USER") { throw .tokenNotValid }
        guard let expiresAt = data["expires_at"]?.number else { throw .tokenNotValid }
        let deadline = Date(timeIntervalSince1970: expiresAt).addingTimeInterval(configuration.clockSkew.timeInterval)
        guard expiresAt == 0 || now() < deadline else { throw .tokenExpired }
        return userID
    }
}
