import Foundation

/// A mail's words, plain text and HTML, for its kind and data: what the outbox renders as it sends a message.
struct MailContent: Sendable, Equatable {
    let subject: String
    let text: String
    let html: String

    /// What the product is called and where a person manages the account, as the mail says them.
    struct Context: Sendable {
        var productName: String
        /// The account page's address, or nil when `server.publicURL` is not set.
        var accountPageURL: String?
    }

    /// The words of a `kind` mail with `data`; nil for a kind or data this version cannot word.
    init?(kind: MailKind, data: [String: String], context: Context) {
        let product = context.productName
        switch kind {
        case .emailCode:
            guard let code = data["code"] else { return nil }
            let purpose = EmailCodePurpose(rawValue: data["purpose"] ?? "") ?? .verifyAddress
            self.init(
                subject: "\(code) is your \(product) code",
                lines: [
                    "Your \(product) code \(purpose.phrase) is:", code,
                    "It works once, for 10 minutes. If you did not ask for it, ignore this mail: nothing changes "
                        + "without the code.",
                ], context: context, manage: false)
        case .addressInUse:
            self.init(
                subject: "Someone tried to add this address to a \(product) account",
                lines: [
                    "Someone asked for a code to add this address to a \(product) account, but the address already "
                        + "belongs to an account. No code was sent.",
                    "If it was you, sign in to the account this address belongs to. If not, ignore this mail.",
                ], context: context, manage: false)
        case .noAccount:
            self.init(
                subject: "Someone asked for a \(product) code for this address",
                lines: [
                    "Someone asked for a code to sign in to, or recover, a \(product) account with this address, "
                        + "but no account has verified it. No code was sent.",
                    "If it was you, you may have used another address. If not, ignore this mail.",
                ], context: context, manage: false)
        case .addressAdded:
            guard let address = data["address"] else { return nil }
            self.init(
                subject: "An email address was added to your \(product) account",
                lines: ["\(address) was added to your \(product) account.", Self.notYou], context: context,
                manage: true)
        case .addressRemoved:
            guard let address = data["address"] else { return nil }
            self.init(
                subject: "This address was removed from your \(product) account",
                lines: ["\(address) no longer belongs to your \(product) account.", Self.notYou], context: context,
                manage: true)
        case .securityAlert:
            guard let alert = data["alertKind"].flatMap(SecurityAlertKind.init(rawValue:)) else { return nil }
            let when = (data["device"].map { " from \($0)" } ?? "") + (data["occurredAt"].map { " at \($0)" } ?? "")
            self.init(
                subject: "\(alert.title) · \(product)",
                lines: [
                    "\(alert.title) on your \(product) account\(when).",
                    alert == .recoveryRequested
                        ? Self.cancelRecovery : Self.notYou,
                ], context: context,
                manage: true)
        }
    }

    private static let cancelRecovery =
        "It waits before it lets anyone in. Not you? Cancel it on the account page, or in the app on any device you "
        + "are signed in on, then sign out everywhere else."

    private static let notYou =
        "Not you? Sign in on a device you trust, remove what you do not recognise, and sign out everywhere else."

    private init(subject: String, lines: [String], context: Context, manage: Bool) {
        var paragraphs = lines
        if manage, let url = context.accountPageURL { paragraphs.append("Manage your account: \(url)") }
        self.subject = subject
        text = paragraphs.joined(separator: "\n\n") + "\n"
        html =
            "<!doctype html><html><body style=\"font-family:sans-serif\">"
            + paragraphs.map { "<p>\(Self.escaped($0))</p>" }.joined() + "</body></html>\n"
    }

    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
