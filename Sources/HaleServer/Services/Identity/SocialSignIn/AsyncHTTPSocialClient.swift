import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SocialTokens
import Tracing

/// `SocialHTTPClient` on AsyncHTTPClient: a short timeout, a bounded body, no redirects, and nothing logged (the
/// URLs carry Facebook's app token and the user's access token).
struct AsyncHTTPSocialClient: SocialHTTPClient {
    let client: HTTPClient
    var timeout: TimeAmount = .seconds(10)
    /// Key sets and Graph answers are a few kilobytes.
    var maxBodyBytes = 1 << 20

    func get(_ url: String) async throws -> SocialHTTPResponse {
        try await send(HTTPClientRequest(url: url))
    }

    func postForm(_ url: String, fields: [(String, String)]) async throws -> SocialHTTPResponse {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: Self.formEncoded(fields)))
        return try await send(request)
    }

    /// Sends in a client span named for the provider's host alone: the URL's path and query may carry tokens.
    private func send(_ request: HTTPClientRequest) async throws -> SocialHTTPResponse {
        var request = request
        request.headers.add(name: "Accept", value: "application/json")
        let host = URL(string: request.url)?.host ?? "provider"
        return try await withSpan("provider \(request.method.rawValue) \(host)", ofKind: .client) { span in
            span.attributes["server.address"] = host
            let response = try await client.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: maxBodyBytes)
            span.attributes["http.response.status_code"] = Int(response.status.code)
            return SocialHTTPResponse(
                status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                body: Array(buffer: body))
        }
    }

    /// `application/x-www-form-urlencoded`: unreserved characters as they are, everything else percent-encoded.
    static func formEncoded(_ fields: [(String, String)]) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
        }
        return fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }
}
