import Vapor

/// `/account`: the person's own page. The page is static HTML, CSS and JavaScript modules from the package's
/// resources; everything it shows comes from `/account/api`, a surface of its own over the same services the JSON
/// APIs use, authenticated by the page's session cookie (`AccountPageAuthentication`) and never by a bearer token.
///
/// Where a JSON API route already does exactly what the page needs, the page's route calls the same handler, so the
/// page and the apps cannot drift apart in what they check.
struct AccountPageRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let page = routes.grouped("account")
        page.get(use: AccountPageAssets.index)
        page.get("assets", ":file", use: AccountPageAssets.asset)

        let api = page.grouped("api").grouped(AccountPageSameOrigin())
        let ceremonies = api.grouped(ClientRateLimit(.signInPerIp))
        ceremonies.on(.POST, "sign-in", "options", limit: .small, use: signInOptions)
        ceremonies.on(.POST, "sign-in", limit: .passkeyCeremony, use: signIn)
        ceremonies.on(.POST, "sign-up", "options", limit: .small, use: signUpOptions)
        ceremonies.on(.POST, "sign-up", limit: .passkeyCeremony, use: signUp)
        ceremonies.on(.POST, "recover", limit: .small, use: recover)

        // A recovery session's cookie reaches these four, to add one passkey, and nothing else.
        let recovering = api.grouped(AccountPageAuthentication(recovery: true))
        recovering.get("session", use: session)
        recovering.post("sign-out", use: signOut)
        recovering.on(.POST, "passkeys", "options", limit: .small, use: addPasskeyOptions)
        recovering.on(.POST, "passkeys", limit: .passkeyCeremony, use: addPasskey)

        let signedIn = api.grouped(AccountPageAuthentication())
        signedIn.post("sign-out-everywhere", use: signOutEverywhere)
        signedIn.on(.POST, "step-up", "options", limit: .small, use: SessionRoutes().stepUpOptions)
        signedIn.on(.POST, "step-up", limit: .passkeyCeremony, use: SessionRoutes().stepUp)
        try managing(signedIn)
        emailRoutes(signedOut: api, signedIn: signedIn)
    }

    private func managing(_ signedIn: any RoutesBuilder) throws {
        let passkeys = MobileBiometricRoutes()
        signedIn.get("passkeys", use: passkeys.list)
        signedIn.on(.PATCH, "passkeys", ":passkeyID", limit: .small, use: passkeys.rename)
        signedIn.delete("passkeys", ":passkeyID", use: passkeys.delete)

        let devices = DeviceKeyRoutes()
        signedIn.get("devices", use: devices.list)
        signedIn.on(.PATCH, "devices", ":deviceId", limit: .small, use: devices.rename)
        signedIn.post("devices", ":deviceId", "deactivate", use: devices.deactivate)
        signedIn.delete("devices", ":deviceId", use: devices.delete)

        signedIn.get("sessions", use: sessions)
        signedIn.delete("sessions", ":sessionId", use: endSession)

        let recovery = RecoveryRoutes()
        signedIn.get("recovery-codes", use: recovery.remaining)
        signedIn.on(.POST, "recovery-codes", limit: .small, use: recovery.generate)

        let tokens = PersonalAccessTokenRoutes()
        signedIn.get("tokens", use: tokens.list)
        signedIn.delete("tokens", ":tokenId", use: tokens.revoke)

        let consent = HealthConsentRoutes(base: [])
        signedIn.get("consent", use: consent.current)
        signedIn.on(.POST, "consent", limit: .small, use: consent.grant)
        signedIn.delete("consent", ":platform", ":permission", use: consent.revoke)

        signedIn.get("health", "statistics", use: HealthRoutes().statistics)
        signedIn.get("health", "sources", use: daySources)
        signedIn.get("health", "connections", use: HealthConnectionRoutes().list)
        signedIn.get("health", "sync-logs", use: HealthSyncRoutes().logs)

        let imports = HealthImportRoutes()
        signedIn.grouped(HealthImportRoutes.uploadLimits).on(
            .POST, "health", "imports", body: .stream, use: imports.upload
        )
        .userInfo[BodyLimit.userInfoKey] = Int.max
        signedIn.get("health", "imports", use: recentImports)
        signedIn.get("health", "imports", ":id", use: imports.show)

        signedIn.get("audit", use: AuditRoutes().list)
        signedIn.grouped(AccountRateLimit(.accountExportsPerAccount)).get(
            "account", "export", use: SessionRoutes().exportAccount)
        signedIn.on(.POST, "account", "delete", "options", limit: .small, use: deletionOptions)
        signedIn.on(.POST, "account", "delete", limit: .passkeyCeremony, use: deleteAccount)
    }
}

/// Refuses a state-changing request from another origin before anything else is read (see
/// `AccountPageAuthentication.checkOrigin`).
struct AccountPageSameOrigin: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try AccountPageAuthentication.checkOrigin(request)
        return try await next.respond(to: request)
    }
}
