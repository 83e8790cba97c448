import AsyncHTTPClient
import Foundation
import NIOCore
import SocialTokens

/// An OAuth 2.0 access token for FCM, from the JWT bearer grant (RFC 7523) with the service account's key; cached
/// until five minutes before it expires, and fetched once for all callers waiting on it.
actor FCMAccessToken {
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    static let assertionLifetime = 3600
    static let refreshMargin: TimeInterval = 300

    private let account: GoogleServiceAccount
    private let tokenURL: String
    private let http: HTTPClient
    private let clock: HaleClock
    private var cached: (token: String, expiresAt: Date)?
    private var pending: Task<(token: String, expiresAt: Date), any Error>?

    init(account: GoogleServiceAccount, tokenURL: String, http: HTTPClient, clock: HaleClock) {
        self.account = account
        self.tokenURL = tokenURL
        self.http = http
        self.clock = clock
    }

    /// A token valid for at least the refresh margin.
    func current() async throws -> String {
        if let cached, cached.expiresAt.timeIntervalSince(clock.now()) > Self.refreshMargin { return cached.token }
        if let pending { return try await pending.value.token }
        let task = Task { try await fetch() }
        pending = task
        defer { pending = nil }
        let fetched = try await task.value
        cached = fetched
        return fetched.token
    }

    /// Forgets `token` after FCM refused it, so the next send fetches a new one.
    func discard(_ token: String) {
        if cached?.token == token { cached = nil }
    }

    private struct Grant: Decodable {
        let access_token: String
        let expires_in: Int
    }

    private func fetch() async throws -> (token: String, expiresAt: Date) {
        let now = clock.now()
        var request = HTTPClientRequest(url: tokenURL)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(
            ByteBuffer(
                string: AsyncHTTPSocialClient.formEncoded([
                    ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                    ("assertion", try assertion(at: now)),
                ])))
        let response = try await http.execute(request, timeout: .seconds(15))
        let body = try await response.body.collect(upTo: 64 * 1024)
        guard response.status == .ok, let grant = try? JSONDecoder().decode(Grant.self, from: Data(buffer: body)) else {
            throw FCMTokenUnavailable(status: Int(response.status.code))
        }
        return (grant.access_token, now.addingTimeInterval(TimeInterval(grant.expires_in)))
    }

    /// The RS256 assertion: `iss` the service account, `scope` FCM's, `aud` the token endpoint, an hour long.
    private func assertion(at now: Date) throws -> String {
        let issuedAt = Int(now.timeIntervalSince1970)
        var header = ["alg": "RS256", "typ": "JWT"]
        header["kid"] = account.privateKeyID
        return try CompactJWT.make(
            header: header,
            claims: [
                "iss": .text(account.clientEmail), "scope": .text(Self.scope), "aud": .text(tokenURL),
                "iat": .number(issuedAt), "exp": .number(issuedAt + Self.assertionLifetime),
            ]
        ) { input in
            try account.rs256Signature(for: input)
        }
    }
}

/// The token endpoint did not grant an access token.
struct FCMTokenUnavailable: Error {
    /// The endpoint's HTTP status.
    let status: Int
}
