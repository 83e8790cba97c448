import Foundation

/// A signed-in session's tokens. They print redacted, so a log line or a `dump` never shows them.
public struct SessionTokens: Sendable, Equatable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The access token: a short-lived ES256 JWT, or the personal access token a social sign-in gives.
    public var accessToken: String
    /// The refresh token, which each refresh replaces; nil for a social sign-in's token, which does not refresh.
    public var refreshToken: String?
    /// From a server that binds sessions to attested app instances: what the next refresh's App Attest assertion
    /// is made over. Keep it with the refresh token.
    public var attestationNonce: String?

    /// Tokens.
    public init(accessToken: String, refreshToken: String?, attestationNonce: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.attestationNonce = attestationNonce
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
        replacing stale: String, with refresh: @escaping @Sendable (SessionTokens) async throws -> SessionTokens
    ) async throws -> SessionTokens {
        if let refreshing { return try await refreshing.value }
        guard let current = tokens else { throw HaleClientError.notSignedIn }
        if current.accessToken != stale { return current }
        guard current.refreshToken != nil else {
            tokens = nil
            throw HaleClientError.notSignedIn
        }
        let task = Task { try await refresh(current) }
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

/// The App Attest key of this installation of the app, once registered: a server that binds sessions
/// (`tokens.bindToAttestation`) wants each refresh asserted by it.
actor AppInstanceStore {
    private(set) var attestation: HealthWriteAttestation?

    func set(_ attestation: HealthWriteAttestation?) {
        self.attestation = attestation
    }
}
