import Vapor

extension Response {
    /// A JSON response. Hale's response types always encode; should one ever fail, that is a bug, and the body is
    /// left empty rather than leaking a partial encoding.
    static func json(_ value: some Encodable, status: HTTPResponseStatus) -> Response {
        let response = Response(status: status)
        do {
            try response.content.encode(value, as: .json)
        } catch {
            response.body = .empty
        }
        return response
    }
}
