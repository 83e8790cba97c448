import Foundation

/// One-time codes that hand a signed-in session to another client — an app opening a web view or browser — without
/// putting a long-lived credential in a URL.
///
/// A code is a server challenge bound to the issuing account, session and device, valid for one minute. Redeeming it
/// yields an access token of the same session, so logging out of the session ends the handed-off access too; no
/// refresh token is ever handed off.
public struct SessionHandoffs: Sendable {
    /// The challenge kind of handoff codes.
    static let kind = "session_handoff"
    /// How long a code can be redeemed.
    static let lifetime: Duration = .seconds(60)

    let challenges: ServerChallenges
    let accessTokens: AccessTokens
    let sessions: Sessions

    /// Issues a code for the authenticated identity.
    public func issue(for identity: AuthenticatedAccount) async throws -> ServerChallenges.Issued {
        let binding = ChallengeBinding(
            accountId: identity.accountId, deviceId: identity.deviceId, sessionId: identity.sessionId)
        return try await challenges.issue(
            kind: Self.kind, binding: binding, lifetime: Self.lifetime, context: identity.signInMethod)
    }

    /// Redeems a code once; of any number of racing redemptions, exactly one succeeds.
    public func redeem(_ code: String) async throws -> AccessTokens.Issued {
        let challenge: ServerChallenge
        do {
            challenge = try await challenges.consume(kind: Self.kind, value: code)
        } catch is ChallengeRejection {
            throw HaleError.invalidChallenge
        }
        guard let account = challenge.accountId else { throw HaleError.invalidChallenge }
        if let session = challenge.sessionId {
            guard let stored = try await sessions.find(session), stored.revokedAt == nil else {
                throw HaleError.invalidChallenge
            }
        }
        return try await accessTokens.issue(
            account: account, session: challenge.sessionId, device: challenge.deviceId,
            signInMethod: challenge.context ?? "handoff")
    }
}
