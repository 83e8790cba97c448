import Foundation
import StrictJSON
import Vapor

/// Seed 003 (Hygeia): `POST /api/v1/auth/oauth/login` exchanges a Google, Apple or Facebook token for a personal
/// access token. Bodies are JSON:API documents; errors are JSON:API errors with the document's `indicator`.
struct SocialSignInRoutes: RouteCollection {
    /// The path prefix whose errors are JSON:API errors.
    static let path = "/api/v1/auth/oauth"
    let socialSignIn: SocialSignIn
    let appleNotifications: AppleNotifications
    let requestLimits: RequestLimits

    func boot(routes: any RoutesBuilder) throws {
        let oauth = routes.grouped("api", "v1", "auth", "oauth")
        // Each sign-in may cost calls to a provider, so it is budgeted per client; the body is a few kilobytes.
        oauth.grouped(requestLimits.perClient(.socialSignInPerIp)).on(.POST, "login", limit: .document, use: login)
        // Apple's notification is one signed JWT of a few kilobytes; anyone may post here, so little is read, and
        // each costs a signature check, so it is budgeted per sender.
        oauth.grouped(requestLimits.perClient(.appleNotificationsPerIp))
            .on(.POST, "apple", "notifications", limit: .appleNotification, use: appleNotification)
    }

    func login(_ request: Request) async throws -> Response {
        let installation = try SignInDevices.installation(
            request.headers.first(name: SignInDevices.installationHeader))
        let document = try Self.document(of: request)
        var signIn = try OAuthLoginBody.read(document)
        signIn.installation = installation
        let result = try await socialSignIn.signIn(signIn, logger: request.logger)
        let response = Response.json(
            AuthTokenDocument(
                data: .init(id: String(result.tokenId), attributes: .init(token: result.token, role: result.role))),
            status: .ok)
        response.headers.contentType = .jsonAPI
        return response
    }

    /// Sign in with Apple's server-to-server notifications: `{"payload": "<JWS>"}`, answered 200 once verified and
    /// applied, so that Apple stops retrying.
    func appleNotification(_ request: Request) async throws -> Response {
        guard case .object(let body) = try Self.document(of: request), body.count == 1,
            case .string(let payload)? = body["payload"]
        else {
            throw HaleError.validationFailed([
                HaleError.FieldError(pointer: "/payload", message: "The body must be {\"payload\": \"<signed JWT>\"}.")
            ])
        }
        try await appleNotifications.receive(payload, logger: request.logger)
        let response = Response.json(AppleNotificationReceipt(), status: .ok)
        response.headers.contentType = .jsonAPI
        return response
    }

    /// The body as JSON; the document's clients send `application/json`, JSON:API clients
    /// `application/vnd.api+json`.
    private static func document(of request: Request) throws -> JSONValue {
        guard let type = request.headers.contentType, type.type == "application",
            type.subType == "json" || type.subType == "vnd.api+json"
        else {
            throw HaleError(
                .unsupportedMediaType, .unsupportedMediaType,
                message: "Send the request body as application/json or application/vnd.api+json.")
        }
        return try request.jsonValue(ifInvalid: "The request body is not valid JSON.")
    }
}

/// `{"data": {"type": "auth-token", "id", "attributes": {"token", "role"}}}`.
struct AuthTokenDocument: Encodable {
    struct Resource: Encodable {
        struct Attributes: Encodable {
            let token: String
            let role: String
        }
        var type = "auth-token"
        let id: String
        let attributes: Attributes
    }
    let data: Resource
}

/// `{"meta": {"received": true}}`.
struct AppleNotificationReceipt: Encodable {
    struct Meta: Encodable {
        var received = true
    }
    var meta = Meta()
}
