import Foundation

/// Seed 003's social sign-in: a Google, Apple or Facebook token exchanged for an API token.
extension HaleClient {
    /// A social identity provider.
    public enum SocialProvider: String, Sendable, CaseIterable {
        /// A Google ID token.
        case google
        /// A Sign in with Apple identity token.
        case apple
        /// A Facebook user access token or Limited Login token.
        case facebook
    }

    /// The outcome of a social sign-in.
    public struct SocialSignIn: Sendable, Hashable {
        /// The API token's id.
        public let tokenId: String
        /// The account's role.
        public let role: String
    }

    /// Exchanges `token` from `provider` for an API token, which the client keeps and sends from then on. It does
    /// not refresh: when the server refuses it, the client is signed out.
    @discardableResult
    public func signIn(
        _ provider: SocialProvider, token: String, role: String = "client", nonce: String? = nil,
        authorizationCode: String? = nil
    ) async throws -> SocialSignIn {
        let body = OAuthLoginDocument(
            data: .init(
                type: "auth-token",
                attributes: .init(
                    provider: provider.rawValue, oauthToken: token, role: role, nonce: nonce,
                    authorizationCode: authorizationCode)))
        let document: AuthTokenDocument = try await send(
            "POST", "api/v1/auth/oauth/login", headers: ["Accept": "application/vnd.api+json"], json: body,
            as: .none)
        await tokens.set(SessionTokens(accessToken: document.data.attributes.token, refreshToken: nil))
        return SocialSignIn(tokenId: document.data.id, role: document.data.attributes.role)
    }

    private struct OAuthLoginDocument: Encodable, Sendable {
        struct Resource: Encodable, Sendable {
            struct Attributes: Encodable, Sendable {
                let provider: String
                let oauthToken: String
                let role: String
                let nonce: String?
                let authorizationCode: String?
            }
            let type: String
            let attributes: Attributes
        }
        let data: Resource
    }

    private struct AuthTokenDocument: Decodable {
        struct Resource: Decodable {
            struct Attributes: Decodable {
                let token: String
                let role: String
            }
            let id: String
            let attributes: Attributes
        }
        let data: Resource
    }
}
