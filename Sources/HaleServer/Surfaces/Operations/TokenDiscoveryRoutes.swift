import Foundation
import Vapor

/// What a resource server needs to verify Hale's tokens with a standard library: the discovery document at
/// `/.well-known/openid-configuration` (OpenID Connect Discovery 1.0, as RFC 8414 reads it), naming the issuer and
/// the JWK Set; and introspection (RFC 7662) at `POST /api/v1/admin/introspect` for tokens a signature cannot
/// settle: personal access tokens, and whether an access token's session is still open.
struct TokenDiscoveryRoutes: RouteCollection {
    let introspection: TokenIntrospection
    /// The `iss` of Hale's access tokens.
    let issuer: String
    /// `server.publicURL` without its trailing slash; without it the document's URLs follow the request's `Host`,
    /// and are not to be cached.
    let publicBase: String?
    let adminKeys: AdminAPIKeys

    func boot(routes: any RoutesBuilder) throws {
        routes.get(".well-known", "openid-configuration", use: discovery)
        routes.grouped("api", "v1", "admin").grouped(AdminKeyMiddleware(keys: adminKeys))
            .on(.POST, "introspect", limit: .form, use: introspect)
    }

    func discovery(_ request: Request) throws -> Response {
        let base = baseURL(of: request)
        let document = DiscoveryDocument(
            issuer: issuer, jwksURI: base + "/.well-known/jwks.json",
            introspectionEndpoint: base + "/api/v1/admin/introspect")
        let response = Response.json(document, status: .ok)
        response.headers.replaceOrAdd(
            name: .cacheControl,
            value: publicBase == nil ? "no-store" : "public, max-age=\(Int(SigningKeyRing.publishedMaxAge))")
        return response
    }

    func introspect(_ request: Request) async throws -> Response {
        guard request.headers.contentType == .urlEncodedForm else {
            throw HaleError(
                .unsupportedMediaType, .unsupportedMediaType,
                message: "Send the token as application/x-www-form-urlencoded, as RFC 7662 says.")
        }
        let form = try IntrospectionForm(request)
        let active = try await introspection.introspect(form.token)
        let response = Response.json(IntrospectionResponse(active), status: .ok)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    private func baseURL(of request: Request) -> String {
        publicBase ?? "http://" + (request.headers.first(name: .host) ?? "localhost")
    }
}

/// The form of an introspection request: `token`, and the optional `token_type_hint`, which Hale does not need.
struct IntrospectionForm {
    let token: String

    init(_ request: Request) throws {
        let fields: [String: String]
        do {
            fields = try request.content.decode([String: String].self, as: .urlEncodedForm)
        } catch {
            throw HaleError.invalidRequest("The body must be a form of token=… and, if you like, token_type_hint=….")
        }
        for name in fields.keys where name != "token" && name != "token_type_hint" {
            throw HaleError.invalidRequest(
                "The form may hold only token and token_type_hint, not \"\(EchoedName.text(name))\".")
        }
        guard let token = fields["token"], !token.isEmpty else {
            throw HaleError.invalidRequest("token is required: the token to introspect.")
        }
        self.token = token
    }
}
