import Foundation

/// The signed-in account and its sessions.
extension HaleClient {
    /// The signed-in account.
    public func account() async throws -> Account {
        try await send("GET", "api/v1/account", as: .session)
    }

    /// Ends this session at the server and forgets its tokens, even when the server cannot be reached: the
    /// person asked to be signed out of this device. An error says the server may still hold the session.
    public func signOut() async throws {
        try await forgettingTokens { _ = try await send("POST", "api/v1/auth/logout", json: EmptyBody(), as: .session) }
    }

    /// Ends every session and every personal access token of the account, on every device; forgets this one's
    /// tokens whatever the server answers. With `removingCredentialsAddedWithinHours` (1 to 720), the passkeys and
    /// device keys added that recently go too, but this device's: for when something was added that the person does
    /// not know. Needs a fresh sign-in.
    public func signOutEverywhere(removingCredentialsAddedWithinHours hours: Int? = nil) async throws {
        try await forgettingTokens {
            _ = try await send(
                "POST", "api/v1/auth/logout-all", json: SignOutEverywhereBody(removeCredentialsAddedWithinHours: hours),
                as: .session)
        }
    }

    struct SignOutEverywhereBody: Encodable {
        let removeCredentialsAddedWithinHours: Int?
    }

    /// The account's own security events (sign-ins, new devices, revocations), newest first; `limit` is 1 to 500.
    public func securityEvents(limit: Int = 100) async throws -> [SecurityEvent] {
        let answer: SecurityEvents = try await send(
            "GET", "api/v1/audit", query: [URLQueryItem(name: "limit", value: "\(limit)")], as: .session)
        return answer.events
    }

    private struct SecurityEvents: Decodable { let events: [SecurityEvent] }

    /// A one-time code that hands this session to another client, such as the web app the person opens next.
    public func issueHandoff() async throws -> SessionHandoff {
        try await send("POST", "api/v1/auth/handoff", json: EmptyBody(), as: .session)
    }

    /// Redeems a hand-off code for a short-lived access token, which this client then uses; it does not refresh.
    @discardableResult
    public func redeemHandoff(_ code: String) async throws -> String {
        let redeemed: HandedOff = try await send(
            "POST", "api/v1/auth/handoff/redeem", json: ["code": code], as: .none)
        await tokens.set(SessionTokens(accessToken: redeemed.accessToken, refreshToken: nil))
        return redeemed.accessToken
    }

    private struct HandedOff: Decodable { let accessToken: String }

    /// Runs `request`, then forgets the session's tokens whether it succeeded or not.
    private func forgettingTokens(_ request: () async throws -> Void) async throws {
        do {
            try await request()
        } catch {
            await tokens.set(nil)
            throw error
        }
        await tokens.set(nil)
    }

    /// The account's personal access tokens that still work, newest first; `limit` is 1 to 500.
    public func personalAccessTokens(limit: Int = 100) async throws -> [PersonalAccessToken] {
        let answer: PersonalAccessTokens = try await send(
            "GET", "api/v1/account/tokens", query: [URLQueryItem(name: "limit", value: "\(limit)")], as: .session)
        return answer.tokens
    }

    private struct PersonalAccessTokens: Decodable { let tokens: [PersonalAccessToken] }

    /// Revokes one of the account's personal access tokens; it stops working at once. Revoking the token this
    /// client signed in with signs it out. Another account's token, or one already revoked, is a 404
    /// `RESOURCE_NOT_FOUND`.
    public func revokePersonalAccessToken(_ id: Int64) async throws {
        _ = try await send("DELETE", "api/v1/account/tokens/\(id)", json: nil, as: .session)
        if let current = await tokens.tokens?.accessToken, current.hasPrefix("\(id)|") {
            await tokens.set(nil)
        }
    }

    /// Everything Hale holds about the account (GDPR art. 20) as one JSON document: profile, passkeys, devices,
    /// sessions, personal access tokens, social identities, fitness challenges, confirmations, security events and
    /// health data; never a token, a token's hash, a secret, a private key or a push token. Hale allows a few
    /// exports an hour (`rateLimits.accountExportsPerAccount`).
    public func exportAccount() async throws -> Data {
        try await send("GET", "api/v1/account/export", json: nil, as: .session)
    }

    /// Writes the account's export (`exportAccount()`) to `file`, replacing it; on Apple platforms the file is
    /// protected until the device is first unlocked.
    public func exportAccount(to file: URL) async throws {
        let data = try await exportAccount()
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            try data.write(to: file, options: [.atomic, .completeFileProtectionUntilFirstUserAuthentication])
        #else
            try data.write(to: file, options: [.atomic])
        #endif
    }

    /// Deletes the account and everything Hale holds about it, then forgets the tokens; after a failure the
    /// session stays, so the deletion can be tried again.
    ///
    /// Hale deletes only after a recent sign-in (`tokens.freshSignInWindow`, 5 minutes by default) with a passkey,
    /// a device key or a social identity; otherwise this throws `HaleClientError.freshSignInRequired`: sign in
    /// again, then call it once more.
    public func deleteAccount() async throws {
        _ = try await send("DELETE", "api/v1/account", json: nil, as: .session)
        await tokens.set(nil)
    }
}
