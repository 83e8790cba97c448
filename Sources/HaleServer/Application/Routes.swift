import Vapor

/// Registers every route collection, each built here with exactly the services it uses.
func registerRoutes(_ app: Application, _ hale: HaleServices) throws {
    let configuration = hale.configuration
    let bearerTokens = hale.bearerTokens
    let limits = hale.requestLimits
    try app.register(
        collection: OperationsRoutes(
            database: hale.database, keySet: { try await hale.jwks() },
            metricsBearerToken: configuration.metricsBearerToken))
    try app.register(
        collection: TokenDiscoveryRoutes(
            introspection: TokenIntrospection(bearerTokens: bearerTokens), issuer: configuration.tokens.issuer,
            publicBase: configuration.server.publicBase, adminKeys: hale.adminKeys))
    let sessions = SessionRoutes(
        sessions: hale.sessions, accounts: hale.accounts, credentialChanges: hale.credentialChanges,
        socialSignIn: hale.socialSignIn, accountExport: hale.accountExport, healthDataRights: hale.healthDataRights,
        personalAccessTokens: hale.personalAccessTokens, stepUps: hale.stepUps, handoffs: hale.handoffs,
        bearerTokens: bearerTokens, requestLimits: limits)
    let personalAccessTokens = PersonalAccessTokenRoutes(
        personalAccessTokens: hale.personalAccessTokens, bearerTokens: bearerTokens)
    let recovery = RecoveryRoutes(
        recoveryCodes: hale.recoveryCodes, credentialChanges: hale.credentialChanges, bearerTokens: bearerTokens,
        requestLimits: limits)
    let emails = EmailRoutes(
        emailAddresses: hale.emailAddresses, credentialChanges: hale.credentialChanges, bearerTokens: bearerTokens,
        requestLimits: limits)
    let emailRecovery = EmailRecoveryRoutes(
        signInEnabled: configuration.email.signIn, accountRecoveries: hale.accountRecoveries,
        emailSignIn: hale.emailSignIn, credentialChanges: hale.credentialChanges, bearerTokens: bearerTokens,
        requestLimits: limits)
    let mobileBiometric = MobileBiometricRoutes(
        passkeys: hale.passkeys, credentialChanges: hale.credentialChanges, firebase: hale.firebase,
        bearerTokens: bearerTokens, requestLimits: limits)
    let deviceKeys = DeviceKeyRoutes(
        devices: hale.devices, passkeys: hale.passkeys, sessions: hale.sessions,
        credentialChanges: hale.credentialChanges, bearerTokens: bearerTokens, requestLimits: limits, clock: hale.clock)
    let audit = AuditRoutes(audit: hale.audit, bearerTokens: bearerTokens)
    let health = HealthRoutes(health: hale.health, bearerTokens: bearerTokens, requestLimits: limits)
    let mobileConsent = HealthConsentRoutes(
        base: ["api", "mobile", "health"], firebase: true, healthConsents: hale.healthConsents,
        bearerTokens: bearerTokens)
    let consent = HealthConsentRoutes(
        base: ["api", "v1", "health"], healthConsents: hale.healthConsents, bearerTokens: bearerTokens)
    let connections = HealthConnectionRoutes(healthConnections: hale.healthConnections, bearerTokens: bearerTokens)
    let sync = HealthSyncRoutes(
        healthSync: hale.healthSync, healthConnections: hale.healthConnections, health: hale.health,
        bearerTokens: bearerTokens)
    let imports = HealthImportRoutes(
        healthImports: hale.healthImports, health: hale.health, bearerTokens: bearerTokens, requestLimits: limits)
    for collection: any RouteCollection in [
        sessions, personalAccessTokens, recovery, emails, emailRecovery, mobileBiometric, deviceKeys, audit,
    ] {
        try app.register(collection: collection)
    }
    try app.register(
        collection: SocialSignInRoutes(
            socialSignIn: hale.socialSignIn, appleNotifications: hale.appleNotifications, requestLimits: limits))
    try app.register(collection: health)
    if let developmentAttestation = hale.developmentAttestation {
        try app.register(
            collection: DevelopmentAttestationRoutes(
                developmentAttestation: developmentAttestation, bearerTokens: bearerTokens, requestLimits: limits))
    }
    for collection: any RouteCollection in [mobileConsent, consent, connections, sync, imports] {
        try app.register(collection: collection)
    }
    try app.register(
        collection: HealthDataRoutes(
            healthDataRights: hale.healthDataRights, provenance: hale.provenance, bearerTokens: bearerTokens))
    try app.register(
        collection: HealthProvenanceRoutes(
            provenance: hale.provenance, bearerTokens: bearerTokens, adminKeys: hale.adminKeys))
    try app.register(
        collection: HealthInterchangeRoutes(
            healthSync: hale.healthSync, health: hale.health, provenance: hale.provenance,
            issuer: configuration.tokens.issuer, bearerTokens: bearerTokens, clock: hale.clock))
    try app.register(
        collection: FitnessChallengeRoutes(fitnessChallenges: hale.fitnessChallenges, bearerTokens: bearerTokens))
    try app.register(
        collection: ConfirmationRoutes(
            confirmations: hale.confirmations, adminKeys: hale.adminKeys, bearerTokens: bearerTokens,
            requestLimits: limits, clock: hale.clock))
    try app.register(collection: WebhookAdminRoutes(webhooks: hale.webhooks, adminKeys: hale.adminKeys))
    try app.register(collection: AssociationRoutes(apps: configuration.apps))
    try app.register(
        collection: AccountPageRoutes(
            accountPage: hale.accountPage, requestLimits: limits, clock: hale.clock, accounts: hale.accounts,
            sessions: hale.sessions, credentialChanges: hale.credentialChanges, passkeys: hale.passkeys,
            recoveryCodes: hale.recoveryCodes, devices: hale.devices, healthDaySources: hale.healthDaySources,
            healthImports: hale.healthImports, socialSignIn: hale.socialSignIn,
            accountRecoveries: hale.accountRecoveries, emailSignIn: hale.emailSignIn,
            emailSignInEnabled: configuration.email.signIn,
            cookies: AccountPageCookies(secure: configuration.server.cookiesAreSecure), sessionRoutes: sessions,
            mobileBiometricRoutes: mobileBiometric, deviceKeyRoutes: deviceKeys, recoveryRoutes: recovery,
            personalAccessTokenRoutes: personalAccessTokens, healthConsentRoutes: consent, healthRoutes: health,
            healthConnectionRoutes: connections, healthSyncRoutes: sync, healthImportRoutes: imports,
            auditRoutes: audit, emailRoutes: emails, emailRecoveryRoutes: emailRecovery))
    try app.register(
        collection: SupabaseRoutes(
            publishableKeys: configuration.supabasePublishableKeys, supabaseTables: hale.supabaseTables,
            health: hale.health, healthSync: hale.healthSync, healthConnections: hale.healthConnections,
            fitnessChallenges: hale.fitnessChallenges, bearerTokens: bearerTokens, clock: hale.clock))
}
