import Foundation
import Vapor

/// A request body whose documented fields are the only ones allowed: anything else is a 400 naming the field.
protocol StrictRequestBody: Content {
    /// The fields the body may contain.
    static var allowedFields: Set<String> { get }
}

extension Request {
    /// Decodes a JSON body, then rejects any top-level field the type does not declare.
    func decodeStrict<Body: StrictRequestBody>(_ type: Body.Type) throws -> Body {
        try requireJSONContentType()
        let body = try content.decode(Body.self)
        guard let data = self.body.data.map({ Data(buffer: $0) }),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else {
            throw HaleError.invalidRequest("The request body must be a JSON object.")
        }
        if let unknown = object.keys.sorted().first(where: { !Body.allowedFields.contains($0) }) {
            throw HaleError.invalidRequest("Unknown field \"\(unknown)\".")
        }
        return body
    }
}

extension Request {
    /// The body as a `JSONValue`, for bodies checked member by member; a 400 with `message` when it is not JSON.
    func jsonValue(ifInvalid message: String) throws -> JSONValue {
        guard let body = body.data, let value = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: body))
        else {
            throw HaleError.invalidRequest(message)
        }
        return value
    }

    /// Throws 415 unless the body is declared as JSON, so that a form or text body never reaches a JSON decoder.
    func requireJSONContentType() throws {
        guard let type = headers.contentType, type.type == "application", type.subType == "json" else {
            throw HaleError(
                .unsupportedMediaType, status: 415, message: "Send the request body as application/json.")
        }
    }
}
