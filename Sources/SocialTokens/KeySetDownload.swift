/// One fetch of a JWK Set and its lifetime.
struct KeySetDownload: Sendable {
    /// The largest key set document accepted.
    static let maximumSize = 1024 * 1024

    /// The usable keys.
    let keySet: JSONWebKeySet
    /// How long the keys may be used without fetching again.
    let lifetime: Duration

    /// Fetches `url` through `http`. A transport failure, a status other than 2xx, a document that is not a JWK Set
    /// and a set without one usable key are all the provider's problem: `providerUnavailable`.
    static func fetch(_ url: String, using http: any SocialHTTPClient) async -> Result<Self, SocialTokenError> {
        let response: SocialHTTPResponse
        do {
            response = try await http.get(url)
        } catch {
            return .failure(.keySetUnreachable)
        }
        guard (200..<300).contains(response.status) else { return .failure(.keySetStatus(response.status)) }
        guard response.body.count <= maximumSize, let keySet = JSONWebKeySet(json: response.body) else {
            return .failure(.keySetMalformed)
        }
        guard !keySet.keys.isEmpty else { return .failure(.keySetEmpty) }
        return .success(KeySetDownload(keySet: keySet, lifetime: CacheControl.lifetime(of: response)))
    }
}
