import Foundation

/// What went wrong with a request to Hale.
public enum HaleClientError: Error, Sendable, Equatable {
    /// Hale answered with an error: its HTTP status, stable code and message, read from whichever of Hale's error
    /// shapes the surface uses (the core `{success, error}`, seed 001's `{statusCode, message, error}`, or seed
    /// 003's JSON:API `{errors}`).
    case server(status: Int, code: String, message: String)
    /// The request never got an answer: no connection, a timeout, a reset.
    case transport(String)
    /// The answer was not what the surface documents.
    case unexpectedResponse(status: Int)
    /// A request that needs a signed-in session was made without one, or its refresh token was refused.
    case notSignedIn
    /// The request needs a more recent sign-in than the one behind the credential: Hale's step-up challenge
    /// (RFC 9470 `insufficient_user_authentication`), as deleting the account asks. Sign in again with a passkey, a
    /// device key or a social identity, then retry within `maxAge`. The session is kept: a refresh does not help.
    case freshSignInRequired(maxAge: Duration?)
    /// The request could not be made from what the caller gave, such as a payload that is not a JSON object.
    case invalidArgument(String)

    /// Reads an error answer's body in any of Hale's error shapes.
    static func server(status: Int, body: Data) -> HaleClientError {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        if let error = object["error"] as? [String: Any], let code = error["code"] as? String {
            return .server(status: status, code: code, message: error["message"] as? String ?? "")
        }
        if let errors = object["errors"] as? [[String: Any]], let first = errors.first {
            let code = first["code"] as? String ?? first["title"] as? String ?? "HTTP_\(status)"
            return .server(status: status, code: code, message: first["detail"] as? String ?? "")
        }
        if let message = object["message"] {
            let text = (message as? String) ?? (message as? [String])?.joined(separator: "; ") ?? ""
            let code = (object["error"] as? String).map { $0.uppercased().replacingOccurrences(of: " ", with: "_") }
            return .server(status: status, code: code ?? "HTTP_\(status)", message: text)
        }
        return .unexpectedResponse(status: status)
    }
}

extension HaleClientError: CustomStringConvertible {
    /// A sentence for a log or a terminal; it never holds a token.
    public var description: String {
        switch self {
        case .server(let status, let code, let message): "HTTP \(status) \(code): \(message)"
        case .transport(let reason): "no answer from the server: \(reason)"
        case .unexpectedResponse(let status): "an answer (HTTP \(status)) that is not what the API documents"
        case .notSignedIn: "not signed in"
        case .freshSignInRequired(let maxAge):
            "a more recent sign-in is required\(maxAge.map { " (within \($0.components.seconds) s)" } ?? "")"
        case .invalidArgument(let reason): "invalid argument: \(reason)"
        }
    }
}
