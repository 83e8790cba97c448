/// The reasons for Apple's REST API and server-to-server notifications. Apple's own error codes appear in them only
/// when they are one of the codes Apple documents, so a reason never carries text from a response.
extension SocialTokenError {
    // What this server was asked to send: refused before Apple is called.
    static let appleCodeMalformed = SocialTokenError.invalidToken("apple_code_malformed")
    static let appleTokenMalformed = SocialTokenError.invalidToken("apple_token_malformed")

    // Apple's answers.
    static let appleInvalidGrant = SocialTokenError.invalidToken("apple_invalid_grant")
    static let appleUnreachable = SocialTokenError.providerUnavailable("apple_unreachable")
    static let appleResponseMalformed = SocialTokenError.providerUnavailable("apple_response_malformed")

    /// Apple's documented `ErrorResponse` codes other than `invalid_grant`: each is this server's request or
    /// configuration at fault, not the person's.
    static let appleConfigurationErrorCodes: Set<String> = [
        "invalid_client", "unauthorized_client", "invalid_request", "unsupported_grant_type", "invalid_scope",
        "unsupported_token_type",
    ]

    /// Apple refused the request with one of ``appleConfigurationErrorCodes``.
    static func appleRejected(_ code: String) -> SocialTokenError {
        .providerUnavailable("apple_\(code)")
    }

    /// Apple answered with a status this library does not read as success or as a documented error.
    static func appleStatus(_ status: Int) -> SocialTokenError {
        .providerUnavailable("apple_http_\(status)")
    }

    // Server-to-server notifications.
    static let appleEventUnknown = SocialTokenError.invalidToken("apple_event_unknown")
    static let appleEventMalformed = SocialTokenError.invalidToken("apple_event_malformed")
    static let appleNotificationStale = SocialTokenError.invalidToken("apple_notification_stale")
}
