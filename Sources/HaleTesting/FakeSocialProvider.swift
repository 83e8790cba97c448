import Crypto
import Foundation
import Synchronization
import Vapor
import _CryptoExtras

/// Google, Apple and Facebook on loopback, for tests: their JWK Sets and Facebook's Graph API, serving a test RSA
/// key, minting tokens signed with it, and counting what it is asked.
public final class FakeSocialProvider: Sendable {
    /// The settings that point Hale at this provider, for `withHale(settings:)`.
    public let settings: [String: String]
    /// `http://127.0.0.1:<port>`.
    public let baseURL: String
    /// The Google client id Hale is configured with.
    public static let googleClientID = "1234-hygeia.apps.googleusercontent.com"
    /// The Apple bundle id Hale is configured with.
    public static let appleAudience = "com.hygeia.app"
    /// The Facebook app id Hale is configured with.
    public static let facebookAppID = "555000111"
    /// The Facebook app secret Hale is configured with.
    public static let facebookAppSecret = "facebook-app-secret"
    /// The `kid` of the test key.
    public static let keyID = "test-key-1"

    let key: _RSA.Signing.PrivateKey
    let app: Application
    let state = Mutex(State())

    struct State {
        var requests: [String: Int] = [:]
        var facebookUsers: [String: FacebookUser] = [:]
    }

    /// A user access token the fake Graph API knows.
    public struct FacebookUser: Sendable {
        /// The Graph user id.
        public var id: String
        /// The profile's name.
        public var name: String
        /// The profile's email, if the user shares one.
        public var email: String?
        /// What debug_token says in `is_valid`.
        public var isValid = true
        /// The app the token was issued to.
        public var appID = FakeSocialProvider.facebookAppID
        /// When the token expires.
        public var expiresAt: Date = Date().addingTimeInterval(3600)

        /// A valid token's user.
        public init(id: String, name: String, email: String?) {
            self.id = id
            self.name = name
            self.email = email
        }
    }

    /// Starts the provider on a free loopback port with a new 2048-bit test key.
    public static func start() async throws -> FakeSocialProvider {
        let port = try freeLoopbackPort()
        let provider = try FakeSocialProvider(port: port, app: try await Application.make(.testing))
        try await provider.app.asyncBoot()
        try await provider.app.server.start(address: .hostname("127.0.0.1", port: port))
        return provider
    }

    private init(port: Int, app: Application) throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        baseURL = "http://127.0.0.1:\(port)"
        settings = [
            "socialSignIn.google.clientIds": Self.googleClientID,
            "socialSignIn.google.keySetUrl": "\(baseURL)/google/certs",
            "socialSignIn.apple.audiences": Self.appleAudience,
            "socialSignIn.apple.keySetUrl": "\(baseURL)/apple/keys",
            "socialSignIn.facebook.appId": Self.facebookAppID,
            "socialSignIn.facebook.appSecret": Self.facebookAppSecret,
            "socialSignIn.facebook.graphUrl": "\(baseURL)/graph",
            "socialSignIn.facebook.keySetUrl": "\(baseURL)/facebook/jwks",
        ]
        self.app = app
        app.logger.logLevel = .error
        routes()
    }

    /// Stops the provider.
    public func stop() async {
        await app.server.shutdown()
        try? await app.asyncShutdown()
    }

    /// The test key's public half as PEM: what an attacker would use as an HMAC secret.
    public var publicKeyPEM: String { key.publicKey.pemRepresentation }

    /// How many requests a path (such as `/google/certs`) has had.
    public func requestCount(_ path: String) -> Int {
        state.withLock { $0.requests[path, default: 0] }
    }

    /// Makes `token` a user access token of `user`.
    public func addFacebookUser(token: String, _ user: FacebookUser) {
        state.withLock { $0.facebookUsers[token] = user }
    }

    /// A Google ID token as the iOS and Android SDKs return it.
    public func googleIDToken(
        subject: String, email: String? = "ana@example.com", emailVerified: Bool = true,
        audience: String = googleClientID, issuer: String = "https://accounts.google.com",
        expiresIn: TimeInterval = 3600
    ) throws -> String {
        var claims: [String: Any] = [
            "iss": issuer, "aud": audience, "sub": subject, "azp": audience, "email_verified": emailVerified,
        ]
        claims["email"] = email
        return try token(claims, expiresIn: expiresIn)
    }

    /// An Apple identity token; `nonce` is put in as given (apps send it raw or as its SHA-256 hex).
    public func appleIdentityToken(
        subject: String, email: String? = nil, privateRelay: Bool = false, nonce: String? = nil,
        audience: String = appleAudience, expiresIn: TimeInterval = 600
    ) throws -> String {
        var claims: [String: Any] = [
            "iss": "https://appleid.apple.com", "aud": audience, "sub": subject, "nonce_supported": true,
        ]
        claims["nonce"] = nonce
        if let email {
            claims["email"] = email
            claims["email_verified"] = "true"
            claims["is_private_email"] = privateRelay ? "true" : "false"
        }
        return try token(claims, expiresIn: expiresIn)
    }

    /// An iOS Facebook Limited Login token.
    public func facebookLimitedLoginToken(subject: String, email: String?, nonce: String) throws -> String {
        var claims: [String: Any] = [
            "iss": "https://www.facebook.com", "aud": Self.facebookAppID, "sub": subject, "nonce": nonce,
            "name": "Ana",
        ]
        claims["email"] = email
        return try token(claims, expiresIn: 3600)
    }

    /// Any RS256 token signed with the provider's key, with `iat` now and `exp` after `expiresIn`.
    public func token(_ claims: [String: Any], expiresIn: TimeInterval, header: [String: Any]? = nil) throws
        -> String
    {
        let now = Int(Date().timeIntervalSince1970)
        var claims = claims
        claims["iat"] = now
        claims["exp"] = now + Int(expiresIn)
        let header = header ?? ["alg": "RS256", "kid": Self.keyID, "typ": "JWT"]
        let input = "\(try Self.segment(header)).\(try Self.segment(claims))"
        let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return "\(input).\(Self.base64URL(signature.rawRepresentation))"
    }

    private static func segment(_ object: [String: Any]) throws -> String {
        base64URL(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// Base64url without padding.
    public static func base64URL(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    private func keySet() throws -> [String: [[String: String]]] {
        let primitives = try key.publicKey.getKeyPrimitives()
        return [
            "keys": [
                [
                    "kty": "RSA", "kid": Self.keyID, "alg": "RS256", "use": "sig",
                    "n": Self.base64URL(primitives.modulus), "e": Self.base64URL(primitives.publicExponent),
                ]
            ]
        ]
    }

    private func routes() {
        for path in ["google/certs", "apple/keys", "facebook/jwks"] {
            app.get(path.pathComponents) { [self] request in
                count(request)
                let response = try Response(
                    status: .ok, body: .init(data: JSONSerialization.data(withJSONObject: try keySet())))
                response.headers.contentType = .json
                response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=3600")
                return response
            }
        }
        app.get("graph", ":version", "debug_token") { [self] request in
            count(request)
            let token = request.query[String.self, at: "input_token"] ?? ""
            guard request.query[String.self, at: "access_token"] == "\(Self.facebookAppID)|\(Self.facebookAppSecret)",
                let user = state.withLock({ $0.facebookUsers[token] })
            else {
                return Self.json(
                    ["error": ["message": "Invalid OAuth access token.", "code": 190]], status: .badRequest)
            }
            return Self.json([
                "data": [
                    "app_id": user.appID, "type": "USER", "is_valid": user.isValid, "user_id": user.id,
                    "expires_at": Int(user.expiresAt.timeIntervalSince1970), "scopes": ["public_profile", "email"],
                ]
            ])
        }
        app.get("graph", ":version", "me") { [self] request in
            count(request)
            let token = request.query[String.self, at: "access_token"] ?? ""
            guard let user = state.withLock({ $0.facebookUsers[token] }) else {
                return Self.json(
                    ["error": ["message": "Invalid OAuth access token.", "code": 190]], status: .badRequest)
            }
            var profile: [String: Any] = ["id": user.id, "name": user.name]
            profile["email"] = user.email
            return Self.json(profile)
        }
    }

    private func count(_ request: Request) {
        state.withLock { $0.requests[request.url.path, default: 0] += 1 }
    }

    private static func json(_ object: [String: Any], status: HTTPResponseStatus = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        let response = Response(status: status, body: .init(data: data))
        response.headers.contentType = .json
        return response
    }
}
