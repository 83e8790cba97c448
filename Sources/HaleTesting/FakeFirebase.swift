import Crypto
import Foundation
import HaleServer
import Synchronization
import Vapor
import X509
import _CryptoExtras

/// Firebase Authentication's side of seed 000 on loopback, for tests: Google's securetoken certificate set served
/// as Google serves it (X.509 PEMs keyed by `kid`, with `Cache-Control: max-age`), Firebase ID tokens signed with
/// its key, and a service account of the project whose public half checks the custom tokens Hale mints.
public final class FakeFirebase: Sendable {
    /// The Firebase project.
    public static let projectID = "hale-petwash-test"
    /// The `kid` of the securetoken key.
    public static let keyID = "securetoken-test-1"
    /// The service account's email: a custom token's `iss` and `sub`.
    public static let clientEmail = "firebase-adminsdk-test@hale-petwash-test.iam.gserviceaccount.com"
    /// The service account key's id: a custom token's `kid`.
    public static let serviceAccountKeyID = "fake-firebase-service-account-key-1"
    /// The path of the certificate set, as Google's.
    public static let certificatesPath = "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"

    /// The settings that point Hale at this fake, with the service account, for `withHale(settings:)`.
    public let settings: [String: String]
    /// `http://127.0.0.1:<port>`.
    public let baseURL: String
    /// The service account key file, JSON.
    public let serviceAccountJSON: String
    let certificatesPEM: String
    let app: Application
    let state = Mutex(State())

    struct State {
        var requests: [String: Int] = [:]
        var clock = HaleClock { Date() }
    }

    /// The securetoken key and the service account key, made once for every fake in the process: a 2048-bit RSA key
    /// costs a debug build about a second of CPU.
    private static let keys = Result {
        (
            securetoken: try _RSA.Signing.PrivateKey(keySize: .bits2048),
            serviceAccount: try _RSA.Signing.PrivateKey(keySize: .bits2048)
        )
    }

    /// Starts the fake on a free loopback port.
    public static func start() async throws -> FakeFirebase {
        try await startOnFreeLoopbackPort { port in
            let fake = try FakeFirebase(port: port, app: try await Application.make(.testing))
            try await fake.app.startOrShutDown(port: port)
            return fake
        }
    }

    private init(port: Int, app: Application) throws {
        self.app = app
        let keys = try Self.keys.get()
        baseURL = "http://127.0.0.1:\(port)"
        certificatesPEM = try Self.certificate(of: keys.securetoken)
        let account: [String: String] = [
            "type": "service_account", "project_id": Self.projectID, "private_key_id": Self.serviceAccountKeyID,
            "private_key": keys.serviceAccount.pkcs8PEMRepresentation, "client_email": Self.clientEmail,
            "client_id": "100000000000000000001", "token_uri": "https://oauth2.googleapis.com/token",
        ]
        serviceAccountJSON = String(
            decoding: try JSONSerialization.data(withJSONObject: account, options: [.sortedKeys]), as: UTF8.self)
        settings = [
            "firebase.projectId": Self.projectID, "firebase.certificatesUrl": baseURL + Self.certificatesPath,
            "firebase.serviceAccount": serviceAccountJSON,
        ]
        app.logger.logLevel = .error
        app.get(Self.certificatesPath.split(separator: "/").map { PathComponent(stringLiteral: String($0)) }) {
            [self] request in
            state.withLock { $0.requests[request.url.path, default: 0] += 1 }
            let body = try JSONSerialization.data(withJSONObject: [Self.keyID: certificatesPEM])
            let response = Response(status: .ok, body: .init(data: body))
            response.headers.contentType = .json
            response.headers.replaceOrAdd(
                name: .cacheControl, value: "public, max-age=22837, must-revalidate, no-transform")
            return response
        }
    }

    /// Stops the fake.
    public func stop() async {
        await app.server.shutdown()
        try? await app.asyncShutdown()
    }

    /// How many times the certificate set has been fetched.
    public var certificateFetches: Int {
        state.withLock { $0.requests[Self.certificatesPath, default: 0] }
    }

    /// Issues tokens at `clock`'s time: give it the clock the server under test runs on.
    public func useClock(_ clock: HaleClock) {
        state.withLock { $0.clock = clock }
    }

    /// The claims of an ID token of `uid` as Firebase issues it after a sign-in a minute ago, valid for an hour: an
    /// email sign-in when `email` is given, else one without an email.
    public func idTokenClaims(uid: String, email: String? = nil, emailVerified: Bool = true) -> [String: Any] {
        let now = Int(state.withLock { $0.clock }.now().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": "https://securetoken.google.com/\(Self.projectID)", "aud": Self.projectID, "auth_time": now - 60,
            "user_id": uid, "sub": uid, "iat": now, "exp": now + 3600,
            "firebase": ["identities": [:] as [String: Any], "sign_in_provider": "password"],
        ]
        if let email {
            claims["email"] = email
            claims["email_verified"] = emailVerified
            claims["firebase"] = ["identities": ["email": [email]], "sign_in_provider": "password"]
        }
        return claims
    }

    /// A Firebase ID token of `uid`, RS256 by the securetoken key, with `changes` applied to its claims (`NSNull()`
    /// removes a claim) and `header` in place of Firebase's.
    public func idToken(
        uid: String, email: String? = nil, emailVerified: Bool = true, changes: [String: Any] = [:],
        header: [String: Any]? = nil
    ) throws -> String {
        var claims = idTokenClaims(uid: uid, email: email, emailVerified: emailVerified)
        for (name, value) in changes { claims[name] = value is NSNull ? nil : value }
        let header = header ?? ["alg": "RS256", "kid": Self.keyID, "typ": "JWT"]
        let input = "\(try Self.segment(header)).\(try Self.segment(claims))"
        let signature = try Self.keys.get().securetoken.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return "\(input).\(FakeSocialProvider.base64URL(signature.rawRepresentation))"
    }

    /// A custom token's header and claims, when its RS256 signature verifies with the service account's public key;
    /// nil otherwise. Firebase checks it so before it signs the uid in.
    public func verifiedCustomToken(_ token: String) -> (header: [String: Any], claims: [String: Any])? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Self.bytes(parts[2]), let key = try? Self.keys.get().serviceAccount,
            key.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: Data("\(parts[0]).\(parts[1])".utf8),
                padding: .insecurePKCS1v1_5),
            let header = Self.bytes(parts[0]).flatMap({ try? JSONSerialization.jsonObject(with: $0) })
                as? [String: Any],
            let claims = Self.bytes(parts[1]).flatMap({ try? JSONSerialization.jsonObject(with: $0) }) as? [String: Any]
        else { return nil }
        return (header, claims)
    }

    /// A self-signed certificate of `key`, as Google's securetoken certificates are.
    private static func certificate(of key: _RSA.Signing.PrivateKey) throws -> String {
        let name = try DistinguishedName { CommonName("securetoken.system.gserviceaccount.com") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-86_400), notValidAfter: now.addingTimeInterval(13 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try Certificate.Extensions { Critical(BasicConstraints.notCertificateAuthority) },
            issuerPrivateKey: Certificate.PrivateKey(key))
        return try certificate.serializeAsPEM().pemString
    }

    private static func segment(_ object: [String: Any]) throws -> String {
        FakeSocialProvider.base64URL(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    private static func bytes(_ segment: Substring) -> Data? {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }
}
