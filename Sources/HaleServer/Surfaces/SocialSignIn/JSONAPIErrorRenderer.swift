import Vapor

/// Seed 003's error shape, JSON:API errors with the document's `indicator`:
/// `{"errors": [{"status": "401", "code": "Unauthorized", "title", "detail", "indicator"}]}`. A validation failure
/// has one error per field, each with `source.pointer`.
struct JSONAPIErrorRenderer: ErrorRenderer {
    struct Document: Encodable {
        let errors: [Entry]
    }

    struct Entry: Encodable {
        struct Source: Encodable {
            let pointer: String
        }
        let status: String
        let code: String
        let title: String
        let detail: String
        let source: Source?
        let indicator: String
    }

    /// A refused attribute of the body is a 422 pointing at it, worded as Laravel's validator words a field: "is not
    /// enabled on this server."; anything else in Hale's own words.
    func domainError(for invalid: InvalidInput) -> HaleError {
        guard OAuthLoginBody.attributes.contains(invalid.field) else { return .invalidRequest(invalid.message) }
        let detail =
            switch invalid.rule {
            case .notEnabled: "is not enabled on this server."
            default: invalid.message
            }
        return .validationFailed([.init(pointer: "/data/attributes/\(invalid.field)", message: detail)])
    }

    func render(_ error: HaleError, for request: Request) -> Response {
        let status = HTTPResponseStatus(statusCode: error.status)
        let entries =
            error.fieldErrors.isEmpty
            ? [entry(error, status: status, detail: error.message, pointer: nil)]
            : error.fieldErrors.map { entry(error, status: status, detail: $0.message, pointer: $0.pointer) }
        let response = Response.json(Document(errors: entries), status: status)
        response.headers.contentType = .jsonAPI
        return response
    }

    private func entry(_ error: HaleError, status: HTTPResponseStatus, detail: String, pointer: String?) -> Entry {
        Entry(
            status: String(error.status), code: status.reasonPhrase, title: Self.title(of: error), detail: detail,
            source: pointer.map(Entry.Source.init), indicator: error.code.rawValue)
    }

    private static func title(of error: HaleError) -> String {
        switch error.code {
        case .oauthInvalidToken: "OAuth authentication failed"
        case .oauthError: "OAuth sign-in failed"
        case .validationFailed: "Validation failed"
        case .rateLimited: "Too many requests"
        default: "Request failed"
        }
    }
}

extension HTTPMediaType {
    /// `application/vnd.api+json`.
    static let jsonAPI = HTTPMediaType(type: "application", subType: "vnd.api+json")
}
