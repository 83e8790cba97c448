/// The HTTP this library needs, injected so that it does no I/O of its own.
///
/// An implementation follows no redirects to other hosts, applies its own timeouts, and throws only for transport
/// failures: any HTTP status, 4xx and 5xx included, comes back as a ``SocialHTTPResponse``. The URLs it is given may
/// carry secrets in their query (Facebook's app token, the user's access token): an implementation must not log them.
public protocol SocialHTTPClient: Sendable {
    /// Sends `GET url` and returns the whole response.
    func get(_ url: String) async throws -> SocialHTTPResponse
    /// Sends `POST url` with `fields` as an `application/x-www-form-urlencoded` body and returns the whole response.
    func postForm(_ url: String, fields: [(String, String)]) async throws -> SocialHTTPResponse
}
