import Vapor

/// `/account`: the person's own page. The page is static HTML, CSS and JavaScript modules from the package's
/// resources; everything it shows comes from `/account/api`, a surface of its own over the same services the JSON
/// APIs use, authenticated by the page's session cookie (`AccountPageAuthentication`) and never by a bearer token.
///
/// Where a JSON API route already does exactly what the page needs, the page's route calls the same handler, so the
/// page and the apps cannot drift apart in what they check.
struct AccountPageRoutes: RouteCollection {
    let accountPage: AccountPageSessions
    let requestLimits: RequestLimits
    let clock: HaleClock
    let accounts: Accounts
    let sessions: Sessions
    let credentialChanges: CredentialChanges
    let passkeys: Passkeys
    let recoveryCodes: RecoveryCodes
    let devices: Devices
    let healthDaySources: HealthDaySources
    let healthImports: HealthImports
    let socialSignIn: SocialSignIn
    let accountRecoveries: AccountRecoveries
    let emailSignIn: EmailSignIn
    /// Whether signing in by email code is on (`email.signIn`).
    let emailSignInEnabled: Bool
    let cookies: AccountPageCookies
    // The JSON APIs' collections whose handlers the page's routes call.
    let sessionRoutes: SessionRoutes
    let mobileBiometricRoutes: MobileBiometricRoutes
    let deviceKeyRoutes: DeviceKeyRoutes
    let recoveryRoutes: RecoveryRoutes
    let personalAccessTokenRoutes: PersonalAccessTokenRoutes
    let healthConsentRoutes: HealthConsentRoutes
    let healthRoutes: HealthRoutes
    let healthConnectionRoutes: HealthConnectionRoutes
    let healthSyncRoutes: HealthSyncRoutes
    let healthImportRoutes: HealthImportRoutes
    let auditRoutes: AuditRoutes
    let emailRoutes: EmailRoutes
    let emailRecoveryRoutes: EmailRecoveryRoutes

    func boot(routes: any RoutesBuilder) throws {
        let page = routes.grouped("account")
        page.get(use: AccountPageAssets.index)
        page.get("assets", ":file", use: AccountPageAssets.asset)

        let api = page.grouped("api").grouped(AccountPageSameOrigin(origins: accountPage.origins))
        let ceremonies = api.grouped(requestLimits.perClient(.signInPerIp))
        ceremonies.on(.POST, "sign-in", "options", limit: .small, use: signInOptions)
        ceremonies.on(.POST, "sign-in", limit: .passkeyCeremony, use: signIn)
        ceremonies.on(.POST, "sign-up", "options", limit: .small, use: signUpOptions)
        ceremonies.on(.POST, "sign-up", limit: .passkeyCeremony, use: signUp)
        ceremonies.on(.POST, "recover", limit: .small, use: recover)

        // A recovery session's cookie reaches these four, to add one passkey, and nothing else.
        let recovering = SignedInRoutes(
            api, authenticatedBy: AccountPageAuthentication(sessions: accountPage, recovery: true))
        recovering.get("session", use: session)
        recovering.on(.POST, "sign-out", use: signOut)
        recovering.on(.POST, "passkeys", "options", limit: .small, use: addPasskeyOptions)
        recovering.on(.POST, "passkeys", limit: .passkeyCeremony, use: addPasskey)

        let signedIn = SignedInRoutes(api, authenticatedBy: AccountPageAuthentication(sessions: accountPage))
        signedIn.on(.POST, "sign-out-everywhere", use: signOutEverywhere)
        signedIn.on(.POST, "step-up", "options", limit: .small, use: sessionRoutes.stepUpOptions)
        signedIn.on(.POST, "step-up", limit: .passkeyCeremony, use: sessionRoutes.stepUp)
        try managing(signedIn)
        registerEmailRoutes(signedOut: api, signedIn: signedIn)
    }

    private func managing(_ signedIn: SignedInRoutes) throws {
        signedIn.get("passkeys", use: mobileBiometricRoutes.list)
        signedIn.on(.PATCH, "passkeys", ":passkeyID", limit: .small, use: mobileBiometricRoutes.rename)
        signedIn.delete("passkeys", ":passkeyID", use: mobileBiometricRoutes.delete)

        signedIn.get("devices", use: deviceKeyRoutes.list)
        signedIn.on(.PATCH, "devices", ":deviceId", limit: .small, use: deviceKeyRoutes.rename)
        signedIn.on(.POST, "devices", ":deviceId", "deactivate", use: deviceKeyRoutes.deactivate)
        signedIn.delete("devices", ":deviceId", use: deviceKeyRoutes.delete)

        signedIn.get("sessions", use: sessionList)
        signedIn.delete("sessions", ":sessionId", use: endSession)

        signedIn.get("recovery-codes", use: recoveryRoutes.remaining)
        signedIn.on(.POST, "recovery-codes", limit: .small, use: recoveryRoutes.generate)

        signedIn.get("tokens", use: personalAccessTokenRoutes.list)
        signedIn.delete("tokens", ":tokenId", use: personalAccessTokenRoutes.revoke)

        signedIn.get("consent", use: healthConsentRoutes.current)
        signedIn.on(.POST, "consent", limit: .small, use: healthConsentRoutes.grant)
        signedIn.delete("consent", ":platform", ":permission", use: healthConsentRoutes.revoke)

        signedIn.get("health", "statistics", use: healthRoutes.statistics)
        signedIn.get("health", "sources", use: daySources)
        signedIn.get("health", "connections", use: healthConnectionRoutes.list)
        signedIn.get("health", "sync-logs", use: healthSyncRoutes.logs)

        healthImportRoutes.registerUpload(on: signedIn.grouped("health", "imports"))
        signedIn.get("health", "imports", use: recentImports)
        signedIn.get("health", "imports", ":id", use: healthImportRoutes.show)

        signedIn.get("audit", use: auditRoutes.list)
        signedIn.grouped(requestLimits.perAccount(.accountExportsPerAccount)).get(
            "account", "export", use: sessionRoutes.exportAccount)
        signedIn.on(.POST, "account", "delete", "options", limit: .small, use: deletionOptions)
        signedIn.on(.POST, "account", "delete", limit: .passkeyCeremony, use: deleteAccount)
    }
}

/// Refuses a state-changing request from another origin before anything else is read (see
/// `AccountPageAuthentication.checkOrigin`).
struct AccountPageSameOrigin: AsyncMiddleware {
    /// The origins the page is served from (`AccountPageSessions.origins`).
    let origins: Set<String>

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try AccountPageAuthentication.checkOrigin(request, allowed: origins)
        return try await next.respond(to: request)
    }
}
