import Foundation
import StrictJSON
import Vapor

/// A request body whose documented fields are the only ones allowed: anything else is a 400 naming the field.
protocol StrictRequestBody: Content, StrictFields {}

extension Request {
    /// Decodes a JSON body, rejecting any field, at the top level or in a nested `Strict` object, that its type does
    /// not declare. The body is parsed once.
    func decodeStrict<Body: StrictRequestBody>(_ type: Body.Type) throws -> Body {
        try requireJSONContentType()
        if let body = body.data { try JSONText.check(body) }
        return try content.decode(Strict<Body>.self).value
    }
}

extension Request {
    /// The body as a `JSONValue`, for bodies checked member by member, read in one pass by `JSONParser`: a 400 with
    /// `message` when it is not JSON, or the parser's own message when it breaks one of its limits.
    func jsonValue(ifInvalid message: String) throws -> JSONValue {
        guard let body = body.data else { throw HaleError.invalidRequest(message) }
        do {
            return try body.withUnsafeReadableBytes { bytes throws(JSONParseError) in try JSONParser.parse(bytes) }
        } catch let error where error == .syntax || error == .invalidText {
            throw HaleError.invalidRequest(message)
        } catch {
            throw HaleError.invalidRequest(error.message)
        }
    }

    /// Throws 415 unless the body is declared as JSON, so that a form or text body never reaches a JSON decoder.
    func requireJSONContentType() throws {
        guard let type = headers.contentType, type.type == "application", type.subType == "json" else {
            throw HaleError(
                .unsupportedMediaType, .unsupportedMediaType, message: "Send the request body as application/json.")
        }
    }
}
