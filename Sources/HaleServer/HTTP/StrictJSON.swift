import Foundation
import Vapor

/// A request body whose documented fields are the only ones allowed: anything else is a 400 naming the field.
protocol StrictRequestBody: Content, StrictFields {}

extension Request {
    /// Decodes a JSON body, rejecting any field, at the top level or in a nested `Strict` object, that its type does
    /// not declare. The body is parsed once.
    func decodeStrict<Body: StrictRequestBody>(_ type: Body.Type) throws -> Body {
        try requireJSONContentType()
        if let body = body.data { try JSONText.requireNoNULCharacter(in: body) }
        return try content.decode(Strict<Body>.self).value
    }
}

extension Request {
    /// The body as a `JSONValue`, for bodies checked member by member; a 400 with `message` when it is not JSON.
    func jsonValue(ifInvalid message: String) throws -> JSONValue {
        guard let body = body.data, let value = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: body))
        else {
            throw HaleError.invalidRequest(message)
        }
        try JSONText.requireNoNULCharacter(in: body)
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
