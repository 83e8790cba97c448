import Crypto
import Foundation
import Synchronization
import Vapor
import _CryptoExtras

/// FCM HTTP v1 and Google's OAuth 2.0 token endpoint on loopback, for tests. The token endpoint checks the JWT
/// bearer assertion (RS256 with the service account's key, `iss`, `scope`, `aud`, `iat`, `exp`); `messages:send`
/// checks the access token and that every data value is a string, and answers as scripted.
public final class FakeFCM: Sendable {
    /// The Firebase project.
    public static let projectID = "hale-test"
    /// The service account's email.
    public static let clientEmail = "push@hale-test.iam.gserviceaccount.com"

    /// The settings that point Hale at this fake, for `withHale(settings:)`.
    public let settings: [String: String]
    let tokenURL: String
    let key: _RSA.Signing.PrivateKey
    let app: Application
    let state = Mutex(State())

    /// One message the fake accepted.
    public struct Received: Sendable {
        /// `message.token`.
        public let deviceToken: String
        /// `message.data`, every value a string.
        public let data: [String: String]
        /// `message.android`.
        public let android: [String: TestJSONValue]
        /// The access token it came with.
        public let accessToken: String
    }

    /// An answer to `messages:send`: a status and, for errors, FCM's `error.status` and `errorCode`.
    public struct Answer: Sendable {
        /// The HTTP status.
        public var status: Int
        /// `error.status`, such as `NOT_FOUND`.
        public var errorStatus: String?
        /// The `FcmError` detail's `errorCode`, such as `UNREGISTERED`.
        public var errorCode: String?
        /// A `BadRequest` field violation's field, such as `message.token`.
        public var field: String?

        /// 200.
        public static let ok = Answer(status: 200)
        /// 404 UNREGISTERED.
        public static let unregistered = Answer(status: 404, errorStatus: "NOT_FOUND", errorCode: "UNREGISTERED")
        /// 400 INVALID_ARGUMENT about the token.
        public static let invalidToken = Answer(
            status: 400, errorStatus: "INVALID_ARGUMENT", errorCode: "INVALID_ARGUMENT", field: "message.token")
        /// 503 UNAVAILABLE.
        public static let unavailable = Answer(status: 503, errorStatus: "UNAVAILABLE", errorCode: "UNAVAILABLE")

        /// An answer.
        public init(status: Int, errorStatus: String? = nil, errorCode: String? = nil, field: String? = nil) {
            self.status = status
            self.errorStatus = errorStatus
            self.errorCode = errorCode
            self.field = field
        }
    }

    struct State {
        var received: [Received] = []
        var rejected: [String] = []
        var scripted: [Answer] = []
        var issued: Set<String> = []
        var tokenRequests = 0
    }

    /// One service account key for every fake in the process: making a 2048-bit RSA key costs a debug build about a
    /// second of CPU, which many tests running at once can ill afford.
    private static let sharedKey = Result { try _RSA.Signing.PrivateKey(keySize: .bits2048) }

    /// Starts the fake on a free loopback port, with the process's test service account key.
    public static func start() async throws -> FakeFCM {
        try await startOnFreeLoopbackPort { port in
            let fake = try FakeFCM(port: port, app: try await Application.make(.testing))
            try await fake.app.startOrShutDown(port: port)
            return fake
        }
    }

    private init(port: Int, app: Application) throws {
        self.app = app
        key = try Self.sharedKey.get()
        let baseURL = "http://127.0.0.1:\(port)"
        tokenURL = "\(baseURL)/token"
        let account: [String: String] = [
            "type": "service_account", "project_id": Self.projectID, "private_key_id": "fcm-key-1",
            "private_key": key.pkcs8PEMRepresentation, "client_email": Self.clientEmail,
            "token_uri": "https://oauth2.googleapis.com/token",
        ]
        settings = [
            "push.fcm.serviceAccount": String(
                decoding: try JSONSerialization.data(withJSONObject: account), as: UTF8.self),
            "push.fcm.url": baseURL, "push.fcm.tokenUrl": tokenURL,
        ]
        app.logger.logLevel = .error
        app.post("token") { [self] request in try grant(request) }
        app.post("v1", "projects", ":project", "messages:send") { [self] request in send(request) }
    }

    /// Stops the fake.
    public func stop() async {
        await app.server.shutdown()
        try? await app.asyncShutdown()
    }

    /// Answers the next messages with `answers`, in order, then 200 again.
    public func script(_ answers: [Answer]) {
        state.withLock { $0.scripted.append(contentsOf: answers) }
    }

    /// Every message accepted, in order.
    public var received: [Received] { state.withLock { $0.received } }
    /// Why each refused request was refused, in order.
    public var rejected: [String] { state.withLock { $0.rejected } }
    /// How many access tokens the token endpoint granted.
    public var tokenRequests: Int { state.withLock { $0.tokenRequests } }

    private struct GrantForm: Content {
        let grant_type: String
        let assertion: String
    }

    private func grant(_ request: Request) throws -> Response {
        let form = try request.content.decode(GrantForm.self, as: .urlEncodedForm)
        guard form.grant_type == "urn:ietf:params:oauth:grant-type:jwt-bearer", verify(assertion: form.assertion)
        else {
            state.withLock { $0.rejected.append("invalid_grant") }
            return Response(status: .badRequest, body: .init(string: #"{"error":"invalid_grant"}"#))
        }
        let token = "ya29.test-\(UUID().uuidString)"
        state.withLock {
            $0.issued.insert(token)
            $0.tokenRequests += 1
        }
        var headers = HTTPHeaders()
        headers.contentType = .json
        return Response(
            status: .ok, headers: headers,
            body: .init(string: #"{"access_token":"\#(token)","expires_in":3599,"token_type":"Bearer"}"#))
    }

    /// RS256 with the service account's key, and the claims Google's token endpoint requires.
    private func verify(assertion: String) -> Bool {
        guard let jwt = TestJWT(assertion), jwt.header["alg"] == .string("RS256"),
            jwt.claims["iss"] == .string(Self.clientEmail),
            jwt.claims["scope"] == .string("https://www.googleapis.com/auth/firebase.messaging"),
            jwt.claims["aud"] == .string(tokenURL), case .number(let iat)? = jwt.claims["iat"],
            case .number(let exp)? = jwt.claims["exp"], exp > iat, exp - iat <= 3600
        else {
            return false
        }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: jwt.signature)
        return key.publicKey.isValidSignature(signature, for: jwt.signingInput, padding: .insecurePKCS1v1_5)
    }

    private func send(_ request: Request) -> Response {
        let bearer = request.headers.bearerAuthorization?.token ?? ""
        guard state.withLock({ $0.issued.contains(bearer) }) else {
            return reject("UNAUTHENTICATED", status: 401)
        }
        guard request.parameters.get("project") == Self.projectID else {
            return reject("PERMISSION_DENIED", status: 403)
        }
        guard let body = TestJSONValue.object(from: request.body.data), case .object(let message)? = body["message"],
            let token = message["token"]?.string, case .object(let data)? = message["data"]
        else {
            return reject("INVALID_ARGUMENT", status: 400)
        }
        let strings = data.compactMapValues(\.string)
        guard strings.count == data.count else { return reject("INVALID_ARGUMENT", status: 400) }
        var android: [String: TestJSONValue] = [:]
        if case .object(let members)? = message["android"] { android = members }
        let answer = state.withLock { state in
            state.received.append(
                Received(deviceToken: token, data: strings, android: android, accessToken: bearer))
            return state.scripted.isEmpty ? Answer.ok : state.scripted.removeFirst()
        }
        return Self.response(answer)
    }

    private func reject(_ status: String, status code: Int) -> Response {
        state.withLock { $0.rejected.append(status) }
        return Self.response(Answer(status: code, errorStatus: status))
    }

    private static func response(_ answer: Answer) -> Response {
        var headers = HTTPHeaders()
        headers.contentType = .json
        guard answer.status != 200 else {
            return Response(
                status: .ok, headers: headers, body: .init(string: #"{"name":"projects/\#(projectID)/messages/1"}"#))
        }
        var details: [[String: Any]] = []
        if let code = answer.errorCode {
            details.append(["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code])
        }
        if let field = answer.field {
            details.append([
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [["field": field, "description": "Invalid registration token"]],
            ])
        }
        let error: [String: Any] = [
            "code": answer.status, "message": "error", "status": answer.errorStatus ?? "UNKNOWN", "details": details,
        ]
        let body = (try? JSONSerialization.data(withJSONObject: ["error": error])) ?? Data()
        return Response(status: .init(statusCode: answer.status), headers: headers, body: .init(data: body))
    }
}
