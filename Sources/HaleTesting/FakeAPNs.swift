import Crypto
import Foundation
import Synchronization
import Vapor

/// APNs on loopback for tests: HTTP/2 over TLS with a certificate made in the test, checking each request's
/// provider token (ES256 signature, `kid`, `iss`, `iat`) and headers as Apple does, and answering as scripted.
public final class FakeAPNs: Sendable {
    /// The team id Hale is configured with.
    public static let teamID = "APNSTEAM01"
    /// The key id Hale is configured with.
    public static let keyID = "APNSKEY001"
    /// The bundle id Hale is configured with: the `apns-topic` expected.
    public static let bundleID = "com.hale.app"

    /// The settings that point Hale at this fake, for `withHale(settings:)`.
    public let settings: [String: String]
    let key = P256.Signing.PrivateKey()
    let app: Application
    let state = Mutex(State())

    /// One request the fake accepted as well formed.
    public struct Received: Sendable {
        /// The device token from the path.
        public let deviceToken: String
        /// The provider token from `authorization`.
        public let providerToken: String
        /// The request's headers, lowercased names.
        public let headers: [String: String]
        /// The JSON payload.
        public let payload: [String: TestJSONValue]
        /// The HTTP major version the request came in on.
        public let httpMajorVersion: Int
    }

    /// An answer: a status and, for errors, APNs's `reason`.
    public struct Answer: Sendable {
        /// The HTTP status.
        public var status: Int
        /// The `reason` of the error body; nil for 200.
        public var reason: String?

        /// 200.
        public static let ok = Answer(status: 200, reason: nil)
        /// 410 Unregistered.
        public static let unregistered = Answer(status: 410, reason: "Unregistered")
        /// 400 BadDeviceToken.
        public static let badDeviceToken = Answer(status: 400, reason: "BadDeviceToken")
        /// 429 TooManyRequests.
        public static let tooManyRequests = Answer(status: 429, reason: "TooManyRequests")
        /// 500 InternalServerError.
        public static let internalServerError = Answer(status: 500, reason: "InternalServerError")

        /// An answer.
        public init(status: Int, reason: String?) {
            self.status = status
            self.reason = reason
        }
    }

    struct State {
        var received: [Received] = []
        var rejected: [String] = []
        var scripted: [Answer] = []
    }

    /// Starts the fake on a free loopback port with a new TLS certificate and a new APNs key.
    public static func start() async throws -> FakeAPNs {
        let certificate = try TestTLSCertificate(commonName: "Hale fake APNs")
        return try await startOnFreeLoopbackPort { port in
            let fake = try FakeAPNs(port: port, certificate: certificate, app: try await Application.make(.testing))
            try await fake.app.startOrShutDown(port: port)
            return fake
        }
    }

    private init(port: Int, certificate: TestTLSCertificate, app: Application) throws {
        self.app = app
        settings = [
            "push.apns.teamId": Self.teamID, "push.apns.keyId": Self.keyID,
            "push.apns.privateKey": key.pemRepresentation, "push.apns.bundleId": Self.bundleID,
            "push.apns.url": "https://127.0.0.1:\(port)", "push.apns.rootCertificate": certificate.certificatePEM,
        ]
        app.logger.logLevel = .error
        app.http.server.configuration.supportVersions = [.two]
        app.http.server.configuration.tlsConfiguration = try certificate.serverConfiguration()
        app.post("3", "device", ":token") { [self] request in answer(request) }
    }

    /// Stops the fake.
    public func stop() async {
        await app.server.shutdown()
        try? await app.asyncShutdown()
    }

    /// Answers the next requests with `answers`, in order, then 200 again.
    public func script(_ answers: [Answer]) {
        state.withLock { $0.scripted.append(contentsOf: answers) }
    }

    /// Every well-formed request, in order.
    public var received: [Received] { state.withLock { $0.received } }
    /// Why each refused request was refused, in order: the checks that failed.
    public var rejected: [String] { state.withLock { $0.rejected } }

    private func answer(_ request: Request) -> Response {
        if let problem = problem(with: request) {
            state.withLock { $0.rejected.append(problem.reason ?? "status_\(problem.status)") }
            return Self.response(problem)
        }
        let received = Received(
            deviceToken: request.parameters.get("token") ?? "",
            providerToken: String(request.headers.first(name: "authorization")?.dropFirst("bearer ".count) ?? ""),
            headers: Dictionary(request.headers.map { ($0.name.lowercased(), $0.value) }) { $1 },
            payload: TestJSONValue.object(from: request.body.data) ?? [:],
            httpMajorVersion: request.version.major)
        let scripted = state.withLock { state in
            state.received.append(received)
            return state.scripted.isEmpty ? Answer.ok : state.scripted.removeFirst()
        }
        return Self.response(scripted)
    }

    private static func response(_ answer: Answer) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "apns-id", value: UUID().uuidString)
        guard let reason = answer.reason else {
            return Response(status: .init(statusCode: answer.status), headers: headers)
        }
        headers.contentType = .json
        return Response(
            status: .init(statusCode: answer.status), headers: headers,
            body: .init(string: #"{"reason":"\#(reason)"}"#))
    }

    /// What APNs would refuse the request for, checked in its order: the provider token, then the headers.
    private func problem(with request: Request) -> Answer? {
        guard request.version.major == 2 else { return Answer(status: 505, reason: "HTTP2Required") }
        guard let authorization = request.headers.first(name: "authorization"), authorization.hasPrefix("bearer "),
            verify(providerToken: String(authorization.dropFirst("bearer ".count)))
        else {
            return Answer(status: 403, reason: "InvalidProviderToken")
        }
        guard request.headers.first(name: "apns-topic") == Self.bundleID else {
            return Answer(status: 400, reason: "BadTopic")
        }
        guard request.headers.first(name: "apns-push-type") == "alert" else {
            return Answer(status: 400, reason: "InvalidPushType")
        }
        guard let priority = request.headers.first(name: "apns-priority"), ["5", "10"].contains(priority) else {
            return Answer(status: 400, reason: "BadPriority")
        }
        guard request.headers.first(name: "apns-expiration").flatMap(Int.init) != nil else {
            return Answer(status: 400, reason: "BadExpirationDate")
        }
        guard let body = request.body.data, body.readableBytes <= 4096,
            TestJSONValue.object(from: body)?["aps"] != nil
        else {
            return Answer(status: 400, reason: "PayloadEmpty")
        }
        return nil
    }

    /// The provider token's ES256 signature with the team's key, `alg`, `kid`, `iss`, and an `iat`.
    private func verify(providerToken token: String) -> Bool {
        guard let jwt = TestJWT(token), jwt.header["alg"] == .string("ES256"),
            jwt.header["kid"] == .string(Self.keyID), jwt.claims["iss"] == .string(Self.teamID),
            case .number? = jwt.claims["iat"],
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jwt.signature)
        else {
            return false
        }
        return key.publicKey.isValidSignature(signature, for: jwt.signingInput)
    }
}
