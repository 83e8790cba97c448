/// The visible text of a push message: fixed sentences per kind, so no account data reaches Apple's or Google's
/// notification display.
enum PushAlertText {
    static func title(_ kind: PushKind, data: [String: String]) -> String {
        switch kind {
        case .confirmationRequest: "Confirm a request"
        case .securityAlert: SecurityAlertKind(rawValue: data["alertKind"] ?? "")?.title ?? "Security alert"
        }
    }

    static func body(_ kind: PushKind, data: [String: String]) -> String {
        switch kind {
        case .confirmationRequest: "Open the app to approve or deny it."
        case .securityAlert: "If this wasn't you, review your account's devices and sessions."
        }
    }
}
