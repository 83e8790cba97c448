import Foundation

/// A signed-in session's tokens. They print redacted, so a log line or a `dump` never shows them.
public struct SessionTokens: Sendable, Equatable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The access token: a short-lived ES256 JWT, or the personal access token a social sign-in gives.
    public var accessToken: String
    /// The refresh token, which each refresh replaces; nil for a social sign-in's token, which does not refresh.
    public var refreshToken: String?

    /// Tokens.
    public init(accessToken: String, refreshToken: String?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }

    /// `SessionTokens(redacted)`.
    public var description: String { "SessionTokens(redacted)" }
    /// `SessionTokens(redacted)`.
    public var debugDescription: String { description }
}

/// Holds the session's tokens and refreshes them single-flight: however many requests find the access token
/// expired at once, one refresh runs and every one of them waits for it. Two refreshes with one refresh token would
/// look like token theft to Hale, which ends the session.
actor TokenStore {
    private(set) var tokens: SessionTokens?
    private var refreshing: Task<SessionTokens, any Error>?

    func set(_ tokens: SessionTokens?) {
        self.tokens = tokens
    }

    /// New tokens from `refresh`, or the result of the refresh already running when the caller's access token was
    /// `stale`; a caller whose stale token was replaced already gets the current tokens without refreshing again.
    func refreshed(
        replacing stale: String, with refresh: @escaping @Sendable (String) async throws -> SessionTokens
    ) async throws -> SessionTokens {
        if let refreshing { return try await refreshing.value }
        guard let current = tokens else { throw HaleClientError.notSignedIn }
        if current.accessToken != stale { return current }
        guard let refreshToken = current.refreshToken else {
            tokens = nil
            throw HaleClientError.notSignedIn
        }
        let task = Task { try await refresh(refreshToken) }
        refreshing = task
        defer { refreshing = nil }
        do {
            let fresh = try await task.value
            tokens = fresh
            return fresh
        } catch HaleClientError.server(status: 401, _, _) {
            tokens = nil
            throw HaleClientError.notSignedIn
        }
    }
}
