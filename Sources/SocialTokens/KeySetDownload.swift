/// One fetch of a key set, a JWK Set or a certificate set, and its lifetime.
struct KeySetDownload: Sendable {
    /// The largest key set document accepted.
    static let maximumSize = 1024 * 1024

    /// The usable keys.
    let keySet: JSONWebKeySet
    /// How long the keys may be used without fetching again.
    let lifetime: Duration

    /// Fetches `url` through `http` and reads it in `format`. A transport failure, a status other than 2xx, a
    /// document that is not a key set of that format and a set without one usable key are all the provider's
    /// problem: `providerUnavailable`.
    static func fetch(_ url: String, format: KeySetFormat, using http: any SocialHTTPClient) async
        -> Result<Self, SocialTokenError>
    {
        let response: SocialHTTPResponse
        do {
            response = try await http.get(url)
        } catch {
            return .failure(.keySetUnreachable)
        }
        guard (200..<300).contains(response.status) else { return .failure(.keySetStatus(response.status)) }
        guard response.body.count <= maximumSize, let keySet = Self.keySet(response.body, format: format) else {
            return .failure(.keySetMalformed)
        }
        guard !keySet.keys.isEmpty else { return .failure(.keySetEmpty) }
        return .success(KeySetDownload(keySet: keySet, lifetime: CacheControl.lifetime(of: response)))
    }

    /// The usable keys of a document in `format`; nil when it is not such a document.
    private static func keySet(_ body: [UInt8], format: KeySetFormat) -> JSONWebKeySet? {
        switch format {
        case .jsonWebKeySet: JSONWebKeySet(json: body)
        case .x509Certificates: JSONWebKeySet(certificates: body)
        }
    }
}
