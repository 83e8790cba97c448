import Foundation

/// One-time codes that hand a signed-in session to another client — an app opening a web view or browser — without
/// putting a long-lived credential in a URL.
///
/// A code is a server challenge bound to the issuing session, valid for one minute. Redeeming it yields an access
/// token of the same session, marked `handoff`, that expires no later than the token that asked for the code. So a
/// handoff never extends access: it cannot outlive the session, its logout, or the access token it came from, and no
/// refresh token is ever handed off. Personal access tokens cannot be handed off.
public struct SessionHandoffs: Sendable {
    /// The challenge kind of handoff codes.
    static let kind = "session_handoff"
    /// How long a code can be redeemed.
    static let lifetime: Duration = .seconds(60)
    /// The sign-in method of handed-off access tokens.
    static let signInMethod = "handoff"

    let challenges: ServerChallenges
    let accessTokens: AccessTokens
    let sessions: Sessions
    let clock: HaleClock

    /// Issues a code for the authenticated session.
    public func issue(for identity: AuthenticatedAccount) async throws -> ServerChallenges.Issued {
        guard case .accessToken = identity.credential, let session = identity.sessionId,
            let notAfter = identity.expiresAt
        else {
            throw HaleError(
                .forbidden, .forbidden,
                message: "Only a signed-in session can be handed off, not a personal access token.")
        }
        let binding = ChallengeBinding(accountId: identity.accountId, deviceId: identity.deviceId, sessionId: session)
        return try await challenges.issue(
            kind: Self.kind, binding: binding, lifetime: Self.lifetime,
            context: String(notAfter.timeIntervalSince1970))
    }

    /// Redeems a code once; of any number of racing redemptions, exactly one succeeds.
    public func redeem(_ code: String) async throws -> AccessTokens.Issued {
        try OpaqueToken.checkPresented(code, field: "code")
        let challenge = try await challenges.consumeOrInvalid(kind: Self.kind, value: code)
        guard let account = challenge.accountId, let sessionID = challenge.sessionId,
            let notAfter = challenge.context.flatMap(TimeInterval.init).map(Date.init(timeIntervalSince1970:)),
            let session = try await sessions.find(sessionID), session.accountId == account,
            session.isActive(at: clock.now())
        else {
            throw HaleError.invalidChallenge
        }
        return try await accessTokens.signer().sign(
            account: account, session: sessionID, device: challenge.deviceId, signInMethod: Self.signInMethod,
            notAfter: notAfter)
    }
}
