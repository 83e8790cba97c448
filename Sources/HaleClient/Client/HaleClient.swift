import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A typed async client of a Hale server, on URLSession.
///
/// Every request has a timeout. Idempotent requests (GET, PUT, DELETE) are retried after transport failures and
/// 429/502/503/504, after the server's `Retry-After` or with backoff. A request made as the signed-in session whose
/// access token the server challenges (`WWW-Authenticate` with `error="invalid_token"`) is refreshed once,
/// single-flight, and sent again.
public final class HaleClient: Sendable {
    /// The server, such as `https://auth.example.com`.
    public let baseURL: URL
    let session: URLSession
    let timeout: TimeInterval
    let retry: RetryPolicy
    let tokens = TokenStore()
    let appInstance = AppInstanceStore()
    /// The id of this app installation, sent as `X-Installation-Id` with every request: the server puts every
    /// session this installation signs in to on one device, which is listed and revoked as a unit.
    public let installationID: String

    /// A client of the server at `baseURL`. Pass the same `installationID` at every launch (keep it with the app's
    /// data, not in a backup that moves to another phone); the default is new for each client.
    public init(
        baseURL: URL, session: URLSession = .shared, timeout: TimeInterval = 30, retry: RetryPolicy = RetryPolicy(),
        installationID: String = UUID().uuidString
    ) {
        self.baseURL = baseURL
        self.session = session
        self.timeout = timeout
        self.retry = retry
        self.installationID = installationID
    }

    /// The signed-in session's tokens, if any: to keep them in the keychain between launches.
    public var sessionTokens: SessionTokens? {
        get async { await tokens.tokens }
    }

    /// Restores tokens kept from an earlier launch, or signs out locally with nil.
    public func restore(_ sessionTokens: SessionTokens?) async {
        await tokens.set(sessionTokens)
    }

    /// Who a request is made as.
    enum Credential: Sendable {
        /// Nobody.
        case none
        /// This token, such as a personal access token.
        case bearer(String)
        /// The signed-in session, refreshed when its access token is refused.
        case session
    }

    /// What a request asks of the server, besides who asks.
    struct Request: Sendable {
        var method: String
        var path: String
        var query: [URLQueryItem] = []
        var headers: [String: String] = [:]
        var body: Data?
        /// A file streamed as the body, instead of `body`.
        var bodyFile: URL?
    }

    /// Sends `body` (JSON) to `path` as `credential` and decodes the answer.
    func send<Answer: Decodable>(
        _ method: String, _ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:],
        json body: (any Encodable & Sendable)? = nil, as credential: Credential, answer: Answer.Type = Answer.self
    ) async throws -> Answer {
        try Self.decode(
            Answer.self, from: try await send(method, path, query: query, headers: headers, json: body, as: credential))
    }

    /// Decodes a 2xx answer's body, or says it is not what the surface documents.
    static func decode<Answer: Decodable>(_ type: Answer.Type, from data: Data) throws -> Answer {
        do {
            return try decoder.decode(Answer.self, from: data)
        } catch {
            throw HaleClientError.unexpectedResponse(status: 200)
        }
    }

    /// Sends a request and returns the body of its 2xx answer.
    func send(
        _ method: String, _ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:],
        json body: (any Encodable & Sendable)?, as credential: Credential
    ) async throws -> Data {
        try await send(
            method, path, query: query, headers: headers, encodedJSON: try body.map { try JSONEncoder().encode($0) },
            as: credential)
    }

    /// Sends a JSON body already encoded and returns the body of the 2xx answer.
    func send(
        _ method: String, _ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:],
        encodedJSON body: Data?, as credential: Credential
    ) async throws -> Data {
        try await send(Request(method: method, path: path, query: query, headers: headers, body: body), as: credential)
    }

    /// Streams `file` from disk as the body (its `Content-Type` among `headers`) and returns the body of the 2xx
    /// answer.
    func send(_ method: String, _ path: String, headers: [String: String], file: URL, as credential: Credential)
        async throws -> Data
    {
        try await send(Request(method: method, path: path, headers: headers, bodyFile: file), as: credential)
    }

    private func send(_ request: Request, as credential: Credential) async throws -> Data {
        guard case .session = credential else {
            return try await attempt(request, bearer: bearer(for: credential))
        }
        guard let access = await tokens.tokens?.accessToken else { throw HaleClientError.notSignedIn }
        do {
            return try await attempt(request, bearer: access, refreshable: true)
        } catch is TokenRefused {
            let fresh = try await tokens.refreshed(replacing: access) { try await self.refresh($0) }
            return try await attempt(request, bearer: fresh.accessToken)
        }
    }

    /// A 401 whose `WWW-Authenticate` says the bearer token itself was refused: the one answer that a refresh
    /// mends. Any other 401, such as a failed signature or attestation, is the request's own error.
    private struct TokenRefused: Error {}

    /// Reads the timestamps Hale writes, with or without fractional seconds.
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            let styles = [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()]
            for style in styles {
                if let date = try? Date(text, strategy: style) { return date }
            }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not ISO 8601"))
        }
        return decoder
    }()

    private func bearer(for credential: Credential) -> String? {
        if case .bearer(let token) = credential { return token }
        return nil
    }

    /// One request, retried as `retry` allows when it is idempotent. With `refreshable`, a challenged token is
    /// thrown as `TokenRefused` for the caller to refresh; otherwise it is the answer's error like any other.
    private func attempt(_ request: Request, bearer: String?, refreshable: Bool = false) async throws -> Data {
        let idempotent = ["GET", "PUT", "DELETE"].contains(request.method)
        var attempt = 1
        while true {
            let failure: HaleClientError
            var serverAsked: Duration?
            do {
                return try await once(request, bearer: bearer)
            } catch let refused as Refused {
                if refreshable, refused.tokenRefused { throw TokenRefused() }
                (failure, serverAsked) = (refused.error, refused.retryAfter)
            } catch let error as HaleClientError {
                failure = error
            }
            attempt += 1
            guard idempotent, attempt <= retry.maxAttempts, failure.isTransient,
                let delay = retry.delay(before: attempt, serverAsked: serverAsked)
            else {
                throw failure
            }
            try await Task.sleep(for: delay)
        }
    }

    /// A non-2xx answer, with what its headers say about trying again.
    private struct Refused: Error {
        let error: HaleClientError
        /// `Retry-After`, when the server sent it in seconds.
        let retryAfter: Duration?
        /// Whether `WWW-Authenticate` says the bearer token itself was refused.
        let tokenRefused: Bool
    }

    private func once(_ request: Request, bearer: String?) async throws -> Data {
        var components = URLComponents(
            url: baseURL.appendingPathComponent(request.path), resolvingAgainstBaseURL: false)
        if !request.query.isEmpty { components?.queryItems = request.query }
        guard let url = components?.url else { throw HaleClientError.transport("Bad URL for \(request.path)") }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        urlRequest.setValue(installationID, forHTTPHeaderField: "X-Installation-Id")
        if let bearer { urlRequest.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body = request.body {
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
            urlRequest.httpBody = body
        }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let response: URLResponse
        do {
            if let file = request.bodyFile {
                (data, response) = try await session.upload(for: urlRequest, fromFile: file)
            } else {
                (data, response) = try await session.data(for: urlRequest)
            }
        } catch {
            throw HaleClientError.transport(error.localizedDescription)
        }
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            let challenge = http?.value(forHTTPHeaderField: "WWW-Authenticate").flatMap(BearerChallenge.init)
            let retryAfter = http?.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) }.flatMap {
                $0 >= 0 ? Duration.seconds($0) : nil
            }
            throw Refused(
                error: Self.error(status: status, body: data, challenge: challenge), retryAfter: retryAfter,
                tokenRefused: status == 401 && challenge?.error == "invalid_token")
        }
        return data
    }

    /// The answer's error; a step-up challenge (RFC 9470) is `freshSignInRequired`, which no refresh mends.
    private static func error(status: Int, body: Data, challenge: BearerChallenge?) -> HaleClientError {
        if status == 401, let challenge, challenge.error == "insufficient_user_authentication" {
            return .freshSignInRequired(maxAge: challenge.maxAge)
        }
        return .server(status: status, body: body)
    }
}

extension HaleClientError {
    /// Whether another attempt may succeed.
    var isTransient: Bool {
        switch self {
        case .transport: true
        case .server(let status, _, _), .unexpectedResponse(let status): RetryPolicy.isTransient(status)
        case .notSignedIn, .invalidArgument, .freshSignInRequired: false
        }
    }
}
