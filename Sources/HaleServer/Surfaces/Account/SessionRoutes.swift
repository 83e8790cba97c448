import Vapor

/// Hale's own session API: refresh, logout, log out everywhere, the signed-in account, and session handoff.
struct SessionRoutes: RouteCollection {
    let sessions: Sessions
    let accounts: Accounts
    let credentialChanges: CredentialChanges
    let socialSignIn: SocialSignIn
    let accountExport: AccountExport
    let healthDataRights: HealthDataRights
    let personalAccessTokens: PersonalAccessTokens
    let stepUps: StepUps
    let handoffs: SessionHandoffs
    let bearerTokens: BearerTokenVerifier
    let requestLimits: RequestLimits

    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped("api", "v1")
        api.grouped(requestLimits.perClient(.refreshPerIp)).on(.POST, "auth", "refresh", limit: .small, use: refresh)
        api.grouped(requestLimits.perClient(.signInPerIp)).on(
            .POST, "auth", "handoff", "redeem", limit: .small, use: redeemHandoff)
        let signedIn = SignedInRoutes(api, authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        signedIn.get("account", use: account)
        signedIn.delete("account", use: deleteAccount)
        signedIn.grouped(requestLimits.perAccount(.accountExportsPerAccount)).get(
            "account", "export", use: exportAccount)
        signedIn.on(.POST, "auth", "logout", use: logout)
        signedIn.on(.POST, "auth", "logout-all", use: logoutEverywhere)
        signedIn.on(.POST, "auth", "handoff", use: issueHandoff)
        let ceremonies = signedIn.grouped(requestLimits.perClient(.signInPerIp))
        ceremonies.on(.POST, "auth", "step-up", "options", limit: .small, use: stepUpOptions)
        ceremonies.on(.POST, "auth", "step-up", limit: .passkeyCeremony, use: stepUp)
        signedIn.grouped(requestLimits.perClient(.emailCodesPerIp)).on(
            .POST, "auth", "step-up", "email", "code", limit: .small, use: stepUpEmailCode)
        ceremonies.on(.POST, "auth", "step-up", "email", limit: .small, use: stepUpWithEmail)
        ceremonies.on(.POST, "auth", "step-up", "device", "challenge", limit: .small, use: stepUpDeviceChallenge)
        ceremonies.on(.POST, "auth", "step-up", "device", limit: .small, use: stepUpWithDeviceKey)
    }

    func refresh(_ request: Request) async throws -> TokenResponse {
        let body = try request.decodeStrict(RefreshRequest.self)
        return TokenResponse(
            try await sessions.refresh(
                body.refreshToken, attestation: try request.refreshAttestation(),
                unavailable: try request.attestationUnavailable(), logger: request.logger))
    }

    func account(_ request: Request, _ account: AuthenticatedAccount) async throws -> AccountResponse {
        guard let found = try await accounts.find(account.accountId) else {
            throw HaleError.invalidToken
        }
        return AccountResponse(found)
    }

    /// Deletes the signed-in account and everything it owns; every credential it had stops working at once. It needs
    /// a fresh sign-in, not just any bearer token: a stolen token must not be able to erase the account.
    func deleteAccount(_ request: Request, _ account: AuthenticatedAccount) async throws -> SuccessResponse {
        try credentialChanges.requireToRemove(account)
        guard try await accounts.delete(account.accountId) else { throw HaleError.invalidToken }
        // Apple's tokens were queued with the deletion; try them now, and leave failures to the background service.
        _ = try? await socialSignIn.appleTokens?.revokeDue(limit: 5, logger: request.logger)
        return SuccessResponse()
    }

    /// Streams everything Hale holds about the signed-in account as one JSON document (GDPR art. 20).
    func exportAccount(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        let document = AccountExportDocument(export: accountExport, healthDataRights: healthDataRights)
        guard let prepared = try await document.prepare(account.accountId) else { throw HaleError.invalidToken }
        var headers = HTTPHeaders()
        headers.contentType = .json
        headers.replaceOrAdd(name: .contentDisposition, value: #"attachment; filename="account-export.json""#)
        let body = Response.Body(
            managedAsyncStream: { writer in
                try await document.write(prepared) { try await writer.writeBuffer(ByteBuffer(data: $0)) }
            }, count: -1)
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Ends the credential the request used: its session, or the personal access token itself.
    func logout(_ request: Request, _ account: AuthenticatedAccount) async throws -> SuccessResponse {
        switch account.credential {
        case .personalAccessToken(let id):
            try await personalAccessTokens.revoke(id)
        case .accessToken, .accountPage:
            if let session = account.sessionId {
                try await sessions.revoke(session, of: account.accountId)
            }
        case .firebaseIDToken:
            // Firebase's session is the app's to end, with Firebase; these routes never accept one anyway.
            break
        }
        return SuccessResponse()
    }

    /// Ends every session and every personal access token of the account, this request's credential included, and
    /// with `removeCredentialsAddedWithinHours` the passkeys and device keys added that recently (but the asking
    /// device's). It needs a fresh sign-in: a stolen token must not be able to sign the owner out of every device.
    func logoutEverywhere(_ request: Request, _ account: AuthenticatedAccount) async throws -> SuccessResponse {
        try credentialChanges.requireToRemove(account)
        let addedWithin = try SignOutEverywhereRequest.read(request)
        try await sessions.signOutEverywhere(
            account.accountId, requester: account, removingCredentialsAddedWithin: addedWithin)
        return SuccessResponse()
    }

    /// Passkey request options for a step-up on this session.
    func stepUpOptions(_ request: Request, _ account: AuthenticatedAccount) async throws -> StepUpOptionsResponse {
        let (options, ceremony) = try await stepUps.options(for: account)
        return StepUpOptionsResponse(options: options, ceremony: ceremony.description)
    }

    /// Proves the person is there with one of the account's passkeys: the session counts as a fresh sign-in for
    /// `tokens.freshSignInWindow` from now, and an operation refused with `FRESH_SIGN_IN_REQUIRED` can be retried.
    func stepUp(_ request: Request, _ account: AuthenticatedAccount) async throws -> StepUpResponse {
        let body = try request.decodeStrict(StepUpRequest.self)
        guard let ceremony = ServerChallengeID(body.ceremony) else { throw HaleError.invalidChallenge }
        let freshUntil = try await stepUps.withPasskey(
            body.credential, ceremony: ceremony, identity: account, logger: request.logger)
        return StepUpResponse(freshUntil: ISO8601.string(freshUntil))
    }

    /// A challenge for this session's device key to sign.
    func stepUpDeviceChallenge(
        _ request: Request, _ account: AuthenticatedAccount
    ) async throws -> StepUpDeviceChallenge {
        let (challenge, expiresAt) = try await stepUps.deviceChallenge(for: account)
        return StepUpDeviceChallenge(challenge: challenge, expiresAt: ISO8601.string(expiresAt))
    }

    /// Steps up with the device key's signature over the challenge.
    func stepUpWithDeviceKey(_ request: Request, _ account: AuthenticatedAccount) async throws -> StepUpResponse {
        let body = try request.decodeStrict(StepUpDeviceSignature.self)
        let freshUntil = try await stepUps.withDeviceKey(
            challenge: body.challenge, signature: body.signedChallenge, identity: account)
        return StepUpResponse(freshUntil: ISO8601.string(freshUntil))
    }

    /// Mails a step-up code, for an account that has nothing but a verified address.
    func stepUpEmailCode(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        let body = try request.decodeStrict(EmailCodeRequest.self)
        let stepUp = try await stepUps.emailStepUp(for: account)
        let sent = try await stepUps.requestEmailCode(to: try EmailAddress.parse(body.email), for: stepUp)
        return try await EmailCodeSentResponse(email: sent.address, expiresAt: ISO8601.string(sent.expiresAt))
            .encodeResponse(status: .accepted, for: request)
    }

    /// Steps up with the code mailed for it.
    func stepUpWithEmail(_ request: Request, _ account: AuthenticatedAccount) async throws -> StepUpResponse {
        let body = try request.decodeStrict(EmailVerifyRequest.self)
        let stepUp = try await stepUps.emailStepUp(for: account)
        let freshUntil = try await stepUps.withEmailCode(
            try EmailAddress.parse(body.email), code: body.code, for: stepUp)
        return StepUpResponse(freshUntil: ISO8601.string(freshUntil))
    }

    func issueHandoff(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        let issued = try await handoffs.issue(for: account)
        let body = HandoffResponse(code: issued.value, expiresAt: ISO8601.string(issued.challenge.expiresAt))
        return try await body.encodeResponse(status: .created, for: request)
    }

    func redeemHandoff(_ request: Request) async throws -> AccessTokenResponse {
        let body = try request.decodeStrict(HandoffRedeemRequest.self)
        let issued = try await handoffs.redeem(body.code)
        return AccessTokenResponse(accessToken: issued.token, accessTokenExpiresAt: ISO8601.string(issued.expiresAt))
    }
}
