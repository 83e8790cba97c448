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
        /// The account's role: `client` or `cleaner`.
        public let role: String
    }

    /// Exchanges `token` from `provider` for an API token, which the client keeps and sends from then on. It does
    /// not refresh: when the server refuses it, the client is signed out. A first sign-in creates the account with
    /// `role`; `previousServices` and `preferredServices` are service ids, `deviceTokens` push tokens.
    @discardableResult
    public func signIn(
        _ provider: SocialProvider, token: String, role: SocialRole = .client, nonce: String? = nil,
        authorizationCode: String? = nil, previousServices: [Int] = [], preferredServices: [Int] = [],
        deviceTokens: [String] = []
    ) async throws -> SocialSignIn {
        let attributes = OAuthLoginDocument.Attributes(
            provider: provider.rawValue, oauthToken: token, role: role.name, nonce: nonce,
            authorizationCode: authorizationCode, additionalData: role.profile)
        let relationships = OAuthLoginDocument.Relationships(
            previousServices: .init(previousServices), preferredServices: .init(preferredServices),
            deviceTokens: deviceTokens.isEmpty
                ? nil : .init(data: deviceTokens.map { .init(attributes: .init(token: $0)) }))
        let document: AuthTokenDocument = try await send(
            "POST", "api/v1/auth/oauth/login", headers: ["Accept": "application/vnd.api+json"],
            json: OAuthLoginDocument(data: .init(attributes: attributes, relationships: relationships)), as: .none)
        await tokens.set(SessionTokens(accessToken: document.data.attributes.token, refreshToken: nil))
        return SocialSignIn(tokenId: document.data.id, role: document.data.attributes.role)
    }

    /// Seed 003's document: `{"data": {"type": "auth-token", "attributes": {…}, "relationships": {…}}}`.
    private struct OAuthLoginDocument: Encodable, Sendable {
        struct Attributes: Encodable, Sendable {
            let provider: String
            let oauthToken: String
            let role: String
            let nonce: String?
            let authorizationCode: String?
            let additionalData: CleanerProfile?
        }
        struct Services: Encodable, Sendable {
            struct Identifier: Encodable, Sendable {
                var type = "service"
                let id: Int
            }
            let data: [Identifier]

            init?(_ ids: [Int]) {
                guard !ids.isEmpty else { return nil }
                data = ids.map { Identifier(id: $0) }
            }
        }
        struct DeviceTokens: Encodable, Sendable {
            struct Resource: Encodable, Sendable {
                struct Attributes: Encodable, Sendable { let token: String }
                let attributes: Attributes
            }
            let data: [Resource]
        }
        struct Relationships: Encodable, Sendable {
            let previousServices: Services?
            let preferredServices: Services?
            let deviceTokens: DeviceTokens?
        }
        struct Resource: Encodable, Sendable {
            var type = "auth-token"
            let attributes: Attributes
            let relationships: Relationships
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
