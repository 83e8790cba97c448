import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// A browser on the account page, in process: its cookie jar, the page's CSRF token, and a software passkey that
/// answers the page's ceremonies.
struct PageVisitor {
    static let origin = "http://localhost:8080"
    static let settings = ["passkeys.rpId": "localhost", "passkeys.origins": origin]

    let app: Application
    var host = "hale.example.com"
    var cookies: [String: String] = [:]
    var csrfToken: String?
    var passkey = SoftwarePasskey(rpID: "localhost", origin: origin)

    /// In memory by default; a running server where the client's address matters (rate limits).
    let tester: any TestingApplicationTester

    init(_ app: Application, tester: (any TestingApplicationTester)? = nil) throws {
        self.app = app
        self.tester = try tester ?? app.testing()
    }

    struct SessionBody: Decodable {
        struct Account: Decodable { let id: String }
        let account: Account
        let sessionId: String
        let deviceId: String?
        let csrfToken: String
    }

    struct Ceremony: Decodable {
        let options: RequestOptions
        let ceremony: String
    }

    struct Creation: Decodable {
        let options: CreationOptions
    }

    /// Sends a request as the page's scripts do: the cookies, the CSRF token on anything but GET, `Origin` on POST.
    mutating func send(
        _ method: HTTPMethod, _ path: String, json body: (any Encodable)? = nil, file: Data? = nil,
        csrf: Bool = true, headers extra: HTTPHeaders = [:]
    ) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: .host, value: host)
        if !cookies.isEmpty {
            headers.add(name: .cookie, value: cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; "))
        }
        if method != .GET {
            headers.add(name: .origin, value: Self.origin)
            if csrf, let csrfToken { headers.add(name: "X-CSRF-Token", value: csrfToken) }
        }
        for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
        var buffer: ByteBuffer?
        if let body {
            headers.contentType = .json
            buffer = ByteBuffer(data: try JSONEncoder().encode(body))
        } else if let file {
            headers.add(name: .contentType, value: "application/zip")
            buffer = ByteBuffer(data: file)
        }
        let response = try await tester.sendRequest(method, path, headers: headers, body: buffer)
        for cookie in Self.setCookies(response) {
            if cookie.value.isEmpty { cookies[cookie.name] = nil } else { cookies[cookie.name] = cookie.value }
        }
        return response
    }

    /// The `Set-Cookie` lines of a response: name, value and the attributes as written.
    static func setCookies(_ response: TestingHTTPResponse) -> [(name: String, value: String, attributes: [String])] {
        response.headers[.setCookie].map { line in
            let parts = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let pair = parts.first?.split(separator: "=", maxSplits: 1).map(String.init) ?? []
            return (pair.first ?? "", pair.count > 1 ? pair[1] : "", Array(parts.dropFirst()))
        }
    }

    /// Signs up on the page with the browser's passkey; returns the session it opened.
    mutating func signUp(displayName: String = "Ada") async throws -> SessionBody {
        let options = try await send(.POST, "/account/api/sign-up/options", json: ["displayName": displayName])
        #expect(options.status == .ok, "\(options.body.string)")
        let creation = try JSONDecoder().decode(Creation.self, from: Data(buffer: options.body))
        let credential = passkey.register(options: creation.options)
        let response = try await send(.POST, "/account/api/sign-up", json: ["credential": credential])
        #expect(response.status == .ok, "\(response.body.string)")
        return try opened(response)
    }

    /// Signs in on the page with the browser's passkey.
    mutating func signIn() async throws -> TestingHTTPResponse {
        let ceremony = try await ceremony("/account/api/sign-in/options")
        return try await send(
            .POST, "/account/api/sign-in",
            json: SignIn(ceremony: ceremony.ceremony, credential: passkey.assert(options: ceremony.options)))
    }

    mutating func ceremony(_ path: String) async throws -> Ceremony {
        let response = try await send(.POST, path)
        #expect(response.status == .ok, "\(response.body.string)")
        return try JSONDecoder().decode(Ceremony.self, from: Data(buffer: response.body))
    }

    mutating func opened(_ response: TestingHTTPResponse) throws -> SessionBody {
        let session = try JSONDecoder().decode(SessionBody.self, from: Data(buffer: response.body))
        csrfToken = session.csrfToken
        return session
    }

    struct SignIn: Encodable {
        let ceremony: String
        let credential: AuthenticationResponseJSON
    }
}
