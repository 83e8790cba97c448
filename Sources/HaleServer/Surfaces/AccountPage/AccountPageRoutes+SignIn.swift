import Vapor
import WebAuthn

/// Signing in, up and out on the page: seed 000's passkey ceremonies, ending in a session the browser holds as a
/// cookie instead of tokens in the answer.
extension AccountPageRoutes {
    func signInOptions(_ request: Request) async throws -> AccountPageCeremony {
        let (options, ceremony) = try await passkeys.authenticationOptions()
        return AccountPageCeremony(options: options, ceremony: ceremony.description)
    }

    func signIn(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(AccountPageSignIn.self)
        guard let ceremony = ServerChallengeID(body.ceremony) else { throw HaleError.invalidChallenge }
        let browser = try body.browser?.device.checked(fieldPrefix: "browser.")
        let response = Response()
        let installation = cookies.installation(of: request, settingOn: response)
        let (_, tokens) = try await passkeys.authenticate(
            body.credential, ceremony: ceremony, rememberMe: false, installation: installation,
            browser: browser ?? AccountPageBrowser.unnamed, logger: request.logger)
        return try await opened(tokens.sessionId, on: response)
    }

    func signUpOptions(_ request: Request) async throws -> CreationOptionsResponse {
        let body = try request.decodeStrict(AccountPageSignUpOptions.self)
        let browser = try (body.browser?.device ?? AccountPageBrowser.unnamed).checked(fieldPrefix: "browser.")
        return CreationOptionsResponse(
            options: try await passkeys.signUpOptions(
                displayName: body.displayName, email: try body.email.map { try AccountEmail($0) }, device: browser))
    }

    func signUp(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(AccountPageRegistration.self)
        let response = Response()
        let installation = cookies.installation(of: request, settingOn: response)
        let registered = try await passkeys.register(
            body.credential, account: nil, device: try body.browser?.device.checked(fieldPrefix: "browser."),
            installation: installation)
        guard let tokens = registered.tokens else { throw HaleError.invalidChallenge }
        return try await opened(tokens.sessionId, on: response)
    }

    /// Uses a recovery code: the browser holds the recovery session as its cookie, and may add one passkey with it.
    func recover(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(AccountPageRecovery.self)
        let (_, pair) = try await recoveryCodes.redeem(
            body.code, ipRange: request.clientIP.flatMap(IPRange.of))
        return try await opened(pair.sessionId, on: Response())
    }

    func session(_ request: Request, _ account: AuthenticatedAccount) async throws -> AccountPageSessionResponse {
        guard let cookie = request.cookies[AccountPageCookies.session]?.string else { throw HaleError.invalidToken }
        return try await sessionResponse(account, cookie: cookie)
    }

    func signOut(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        if let session = account.sessionId {
            try await sessions.revoke(session, of: account.accountId)
        }
        return try await signedOut(request)
    }

    func signOutEverywhere(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        try credentialChanges.requireToRemove(account)
        let addedWithin = try SignOutEverywhereRequest.read(request)
        try await sessions.signOutEverywhere(
            account.accountId, requester: account, removingCredentialsAddedWithin: addedWithin)
        return try await signedOut(request)
    }

    /// Gives the new session its cookie and answers what `GET /account/api/session` would.
    func opened(_ session: SessionID, on response: Response) async throws -> Response {
        let cookie = try await accountPage.open(session)
        cookies.setSession(cookie, on: response)
        let identity = try await accountPage.identity(cookie: cookie)
        try response.content.encode(try await sessionResponse(identity, cookie: cookie))
        return response
    }

    /// Who is signed in with `cookie`, and the page's CSRF token.
    private func sessionResponse(_ identity: AuthenticatedAccount, cookie: String) async throws
        -> AccountPageSessionResponse
    {
        guard let account = try await accounts.find(identity.accountId), let session = identity.sessionId
        else {
            throw HaleError.invalidToken
        }
        return AccountPageSessionResponse(
            account: AccountResponse(account), sessionId: session.description,
            deviceId: identity.deviceId?.description, csrfToken: AccountPageSessions.csrfToken(for: cookie),
            recovery: identity.isRecovery)
    }

    func signedOut(_ request: Request) async throws -> Response {
        let response = try await SuccessResponse().encodeResponse(for: request)
        cookies.clearSession(on: response)
        return response
    }
}
