import Crypto
import Foundation
import HaleServer
import Synchronization
import Vapor
import _CryptoExtras

/// Google, Apple and Facebook on loopback, for tests: their JWK Sets, Google's token info and Facebook's Graph API, serving a test RSA
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
    /// The team id of the Sign in with Apple key Hale is configured with.
    public static let appleTeamID = "TEAM123456"
    /// The key id of that key.
    public static let appleKeyID = "KEY1234567"

    let key: _RSA.Signing.PrivateKey
    /// The team's Sign in with Apple key, whose public half checks Hale's client secrets.
    let appleKey = P256.Signing.PrivateKey()
    let app: Application
    let state = Mutex(State())

    struct State {
        var requests: [String: Int] = [:]
        var facebookUsers: [String: FacebookUser] = [:]
        var googleUsers: [String: GoogleUser] = [:]
        var appleCodes: [String: String] = [:]
        var appleRefreshTokens: [String: String] = [:]
        var revokedAppleTokens: [String] = []
        var appleAvailable = true
        var clock = HaleClock { Date() }
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
        try await startOnFreeLoopbackPort { port in
            let provider = try FakeSocialProvider(port: port, app: try await Application.make(.testing))
            try await provider.app.startOrShutDown(port: port)
            return provider
        }
    }

    private init(port: Int, app: Application) throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        baseURL = "http://127.0.0.1:\(port)"
        settings = [
            "socialSignIn.google.clientIds": Self.googleClientID,
            "socialSignIn.google.keySetUrl": "\(baseURL)/google/certs",
            "socialSignIn.google.tokenInfoUrl": "\(baseURL)/google/tokeninfo",
            "socialSignIn.google.userInfoUrl": "\(baseURL)/google/userinfo",
            "socialSignIn.apple.audiences": Self.appleAudience,
            "socialSignIn.apple.keySetUrl": "\(baseURL)/apple/keys",
            "socialSignIn.facebook.appId": Self.facebookAppID,
            "socialSignIn.facebook.appSecret": Self.facebookAppSecret,
            "socialSignIn.facebook.graphUrl": "\(baseURL)/graph",
            "socialSignIn.facebook.keySetUrl": "\(baseURL)/facebook/jwks",
            "socialSignIn.apple.teamId": Self.appleTeamID,
            "socialSignIn.apple.keyId": Self.appleKeyID,
            "socialSignIn.apple.privateKey": appleKey.pemRepresentation,
            "socialSignIn.apple.tokenEncryptionKey": Data((0..<32).map { _ in UInt8.random(in: 0...255) })
                .base64EncodedString(),
            "socialSignIn.apple.tokenUrl": "\(baseURL)/apple/auth/token",
            "socialSignIn.apple.revokeUrl": "\(baseURL)/apple/auth/revoke",
        ]
        self.app = app
        app.logger.logLevel = .error
        routes()
        appleRoutes()
        googleAccessTokenRoutes()
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

    /// Makes `code` an authorization code of the Apple user `subject`, good for one exchange.
    public func addAppleAuthorizationCode(_ code: String, subject: String) {
        state.withLock { $0.appleCodes[code] = subject }
    }

    /// Every refresh token Apple's token endpoint has issued.
    public var issuedAppleRefreshTokens: [String] {
        state.withLock { Array($0.appleRefreshTokens.keys) }
    }

    /// The Apple user whose refresh tokens Apple was asked to revoke, one entry per revocation.
    public var revokedAppleSubjects: [String] {
        state.withLock { state in state.revokedAppleTokens.compactMap { state.appleRefreshTokens[$0] } }
    }

    /// Makes Apple's token endpoints answer 503 (false) or work (true).
    public func setAppleAvailable(_ available: Bool) {
        state.withLock { $0.appleAvailable = available }
    }

    /// Issues tokens at `clock`'s time instead of the real time: give it the clock the server under test runs on,
    /// so a slow start never makes a token look issued in the server's future.
    public func useClock(_ clock: HaleClock) {
        state.withLock { $0.clock = clock }
    }

    /// A Sign in with Apple server-to-server notification's payload for `subject`.
    public func appleNotification(_ type: String, subject: String, audience: String = appleAudience) throws -> String {
        let event = try JSONSerialization.data(
            withJSONObject: ["type": type, "sub": subject, "event_time": Int(Date().timeIntervalSince1970 * 1000)])
        return try token(
            [
                "iss": "https://appleid.apple.com", "aud": audience, "jti": UUID().uuidString,
                "events": String(decoding: event, as: UTF8.self),
            ], expiresIn: 3600)
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
        let now = Int(state.withLock { $0.clock }.now().timeIntervalSince1970)
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

    private func appleRoutes() {
        app.post("apple", "auth", "token") { [self] request in
            count(request)
            guard state.withLock({ $0.appleAvailable }) else { return Self.json([:], status: .serviceUnavailable) }
            let form = try request.content.decode([String: String].self, as: .urlEncodedForm)
            guard isValidClientSecret(form["client_secret"], clientID: form["client_id"]) else {
                return Self.json(["error": "invalid_client"], status: .badRequest)
            }
            guard form["grant_type"] == "authorization_code", let code = form["code"],
                let subject = state.withLock({ $0.appleCodes.removeValue(forKey: code) })
            else {
                return Self.json(["error": "invalid_grant"], status: .badRequest)
            }
            let refreshToken = "r.\(UUID().uuidString)"
            state.withLock { $0.appleRefreshTokens[refreshToken] = subject }
            return Self.json([
                "access_token": "a.\(UUID().uuidString)", "token_type": "Bearer", "expires_in": 3600,
                "refresh_token": refreshToken,
                "id_token": try appleIdentityToken(subject: subject, audience: form["client_id"] ?? ""),
            ])
        }
        app.post("apple", "auth", "revoke") { [self] request in
            count(request)
            guard state.withLock({ $0.appleAvailable }) else { return Self.json([:], status: .serviceUnavailable) }
            let form = try request.content.decode([String: String].self, as: .urlEncodedForm)
            guard isValidClientSecret(form["client_secret"], clientID: form["client_id"]) else {
                return Self.json(["error": "invalid_client"], status: .badRequest)
            }
            if let token = form["token"] { state.withLock { $0.revokedAppleTokens.append(token) } }
            return Response(status: .ok)
        }
    }

    /// Checks a client secret as Apple does: ES256 by the team's key, for this client, not expired.
    private func isValidClientSecret(_ secret: String?, clientID: String?) -> Bool {
        let parts = secret?.split(separator: ".", omittingEmptySubsequences: false) ?? []
        guard parts.count == 3, let clientID,
            let header = Self.object(parts[0]), let claims = Self.object(parts[1]),
            let signatureBytes = Self.bytes(parts[2]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            appleKey.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)),
            header["alg"] as? String == "ES256", header["kid"] as? String == Self.appleKeyID,
            claims["iss"] as? String == Self.appleTeamID, claims["sub"] as? String == clientID,
            claims["aud"] as? String == "https://appleid.apple.com",
            let expiry = claims["exp"] as? Double, expiry > Date().timeIntervalSince1970
        else {
            return false
        }
        return true
    }

    private static func bytes(_ segment: Substring) -> Data? {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }

    private static func object(_ segment: Substring) -> [String: Any]? {
        bytes(segment).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    func count(_ request: Request) {
        state.withLock { $0.requests[request.url.path, default: 0] += 1 }
    }

    static func json(_ object: [String: Any], status: HTTPResponseStatus = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        let response = Response(status: status, body: .init(data: data))
        response.headers.contentType = .json
        return response
    }
}
