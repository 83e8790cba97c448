/// What the authorization-code exchange returns.
public struct AppleTokens: Sendable, Equatable {
    /// The refresh token, to keep (encrypted) until the account is deleted and then revoke.
    public let refreshToken: String
    /// The `sub` of the id_token Apple returned with it: the user the refresh token belongs to.
    public let subject: String

    /// Tokens with the given values.
    public init(refreshToken: String, subject: String) {
        self.refreshToken = refreshToken
        self.subject = subject
    }
}

extension AppleTokens: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The subject; never the refresh token.
    public var description: String {
        "AppleTokens(refreshToken: <redacted>, subject: \(subject))"
    }

    /// The same as ``description``.
    public var debugDescription: String {
        description
    }

    /// The members without the refresh token.
    public var customMirror: Mirror {
        Mirror(self, children: ["refreshToken": "<redacted>", "subject": subject])
    }
}
