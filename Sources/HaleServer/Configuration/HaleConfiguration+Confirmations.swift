import Foundation

extension HaleConfiguration {
    /// Where confirmation answers are sent, when the app's backend wants them pushed rather than polled.
    public struct ConfirmationWebhook: Sendable {
        /// The backend's URL: https, or http on loopback.
        public var url: String
        /// The HMAC-SHA256 key both sides hold.
        public var secret: String
    }

    static func confirmationWebhook(_ values: ConfigValues) throws -> ConfirmationWebhook? {
        let url = try values.string("confirmations.webhookUrl")
        let secret = try values.string("confirmations.webhookSecret")
        guard !url.isEmpty else {
            guard secret.isEmpty else {
                throw ConfigError("confirmations.webhookSecret needs confirmations.webhookUrl")
            }
            return nil
        }
        guard let parsed = URL(string: url), let host = parsed.host, SocialSignIn.isSecure(parsed, host: host) else {
            throw ConfigError("confirmations.webhookUrl must be an https URL (http only on loopback), not \"\(url)\"")
        }
        guard secret.utf8.count >= 32 else {
            throw ConfigError("confirmations.webhookSecret must be at least 32 characters")
        }
        return ConfirmationWebhook(url: url, secret: secret)
    }
}
