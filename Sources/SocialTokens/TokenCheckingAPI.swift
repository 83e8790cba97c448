import StrictJSON

/// A provider's HTTP API that vouches for an opaque access token (Facebook's Graph API, Google's token info and
/// user info), and the reasons its answers give: a 4xx answer or an `error` object refuses the token; a 5xx, 429 or
/// any other status, a body that is not a JSON object, or no answer at all is the provider's problem.
struct TokenCheckingAPI: Sendable {
    let rejected: SocialTokenError
    let malformed: SocialTokenError
    let unreachable: SocialTokenError
    let status: @Sendable (Int) -> SocialTokenError

    static let facebookGraph = TokenCheckingAPI(
        rejected: .graphRejected, malformed: .graphMalformed, unreachable: .graphUnreachable,
        status: SocialTokenError.graphStatus)

    static let google = TokenCheckingAPI(
        rejected: .googleRejected, malformed: .googleMalformed, unreachable: .googleUnreachable,
        status: SocialTokenError.googleStatus)

    /// The members of an answer, or why there are none.
    func members(of response: SocialHTTPResponse) throws(SocialTokenError) -> [String: JSONValue] {
        switch response.status {
        case 200..<300:
            guard let members = JSONObject.decode(response.body) else { throw malformed }
            guard members["error"] == nil else { throw rejected }
            return members
        case 429: throw status(response.status)
        case 400..<500: throw rejected
        default: throw status(response.status)
        }
    }
}

extension SocialTokenVerifier {
    /// `GET url` of `api` through the injected client, and the members of its answer.
    func ask(_ url: String, of api: TokenCheckingAPI) async throws(SocialTokenError) -> [String: JSONValue] {
        let response: SocialHTTPResponse
        do {
            response = try await http.get(url)
        } catch {
            throw api.unreachable
        }
        return try api.members(of: response)
    }
}
