import Foundation
import NIOCore

/// An FCM HTTP v1 error body: `error.status` and the `FcmError` detail's `errorCode`, with the fields a `BadRequest`
/// detail names.
struct FCMError {
    var status = ""
    var errorCode = ""
    var fields: [String] = []

    init(_ body: ByteBuffer) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
            let error = object["error"] as? [String: Any]
        else {
            return
        }
        status = error["status"] as? String ?? ""
        for detail in error["details"] as? [[String: Any]] ?? [] {
            if let code = detail["errorCode"] as? String { errorCode = code }
            for violation in detail["fieldViolations"] as? [[String: Any]] ?? [] {
                if let field = violation["field"] as? String { fields.append(field) }
            }
        }
    }

    /// Firebase's "FCM error codes": 404 UNREGISTERED (the app was uninstalled or the token expired) and a 400
    /// INVALID_ARGUMENT about `message.token` mean the token is dead; 429, 500 and 503 come and go; 401 means the
    /// access token was refused, which a fresh one may fix.
    func outcome(status code: Int) -> PushSendOutcome {
        let reason = errorCode.isEmpty ? (status.isEmpty ? "status_\(code)" : status) : errorCode
        switch code {
        case 200: return .delivered
        // A 404 without UNREGISTERED is a wrong project or URL, not a dead token: clearing would wipe every token.
        case 404 where errorCode == "UNREGISTERED": return .tokenInvalid(reason: reason)
        case 400 where fields.contains("message.token"): return .tokenInvalid(reason: reason)
        case 401, 429, 500...599: return .retry(reason: reason)
        default: return .rejected(reason: reason)
        }
    }
}
