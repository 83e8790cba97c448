import SocialTokens
import Vapor
import WebAuthn

/// The services of one running Hale, built once by `configure`, which hands each route
/// collection the ones it uses.
public struct HaleServices: Sendable {
    /// The configuration the services were built from.
    public let configuration: HaleConfiguration
    /// The database.
    public let database: HaleDatabase
    /// The clock every service reads.
    public let clock: HaleClock
    /// What seals the secrets kept in the database; nil under PostgreSQL without a key-encryption key, where
    /// `hale serve` does not start.
    public let sealer: SecretSealer?
    /// Accounts.
    public let accounts: Accounts
    /// Sessions and refresh tokens.
    public let sessions: Sessions
    /// Access-token signing and verification.
    public let accessTokens: AccessTokens
    /// Personal access tokens.
    public let personalAccessTokens: PersonalAccessTokens
    /// The rule for operations that need a recent sign-in, such as deleting the account.
    public let freshSignIn: FreshSignIn
    /// The rule for changing how an account is reached: adding or removing a credential, signing out everywhere.
    public let credentialChanges: CredentialChanges
    /// Recovery codes, and the recovery sessions they open.
    public let recoveryCodes: RecoveryCodes
    /// Single-use server challenges.
    public let challenges: ServerChallenges
    /// The bearer-token verifier every protected route uses.
    public let bearerTokens: BearerTokenVerifier
    /// Seed 000's Firebase users; nil when `firebase.projectId` is not set.
    public let firebase: FirebaseAccounts?
    /// Session handoff codes.
    public let handoffs: SessionHandoffs
    /// Passkeys.
    public let passkeys: Passkeys
    /// Step-up ceremonies: a session proved fresh again with a passkey.
    public let stepUps: StepUps
    /// The account page's cookie sessions.
    public let accountPage: AccountPageSessions
    /// Devices and their hardware-backed keys.
    public let devices: Devices
    /// Request budgets.
    public let requestLimits: RequestLimits
    /// The hash-chained audit trail of security events.
    public let audit: AuditTrail
    /// Social sign-in with Google, Apple and Facebook tokens.
    public let socialSignIn: SocialSignIn
    /// Sign in with Apple's server-to-server notifications.
    public let appleNotifications: AppleNotifications
    /// Seed 001's health data.
    public let health: HealthData
    /// Which source counted for each day (the account page's chart).
    public let healthDaySources: HealthDaySources
    /// Consent to synced health data (seeds 000 and 004).
    public let healthConsents: HealthConsents
    /// Sample sync (seeds 000 and 004).
    public let healthSync: HealthSync
    /// Apple Health export imports, through the sample sync.
    public let appleHealthImport: AppleHealthImport
    /// Exports uploaded through the API, imported in the background.
    public let healthImports: HealthImports
    /// The export and deletion of an account's health data.
    public let healthDataRights: HealthDataRights
    /// Signed provenance statements of attested health data.
    public let provenance: ProvenanceStatements
    /// The whole account's export.
    let accountExport: AccountExport
    /// Deletes synced health data past its retention or its consent.
    public let healthRetention: HealthRetention
    /// Connections to health-data providers (seed 004).
    public let healthConnections: HealthConnections
    /// Fitness challenges over synced health data (seed 004).
    public let fitnessChallenges: FitnessChallenges
    /// The keys the app's own backend authenticates with to the admin API.
    public let adminKeys: AdminAPIKeys
    /// Confirmation requests: actions a device approves or denies with its key (seed 002).
    public let confirmations: Confirmations
    /// Seed 004's tables, read as PostgREST reads them, within one account's rows.
    let supabaseTables: any PostgRESTRowReader
    /// Delivery of confirmation answers to the app backend's webhook; nil when none is configured.
    public let confirmationWebhooks: ConfirmationWebhooks?
    /// The app backend's webhook endpoints and their deliveries.
    public let webhooks: Webhooks
    /// Delivery of the push outbox through APNs and FCM.
    public let pushDelivery: PushDelivery
    /// Delivery of the mail outbox through SMTP, or into a directory.
    let mailDelivery: MailDelivery
    /// Verified email addresses and their codes.
    public let emailAddresses: EmailAddresses
    /// Recovery by email and by an operator, which waits `recovery.emailDelay`.
    public let accountRecoveries: AccountRecoveries
    /// Signing in with an email code.
    public let emailSignIn: EmailSignIn
    /// Development attestation (`appAttest.developmentMode`); nil when it is off.
    let developmentAttestation: DevelopmentAttestation?
    let signingKeys: SigningKeyRing

    init(
        configuration: HaleConfiguration, database: HaleDatabase, clock: HaleClock, providerHTTP: any SocialHTTPClient,
        pushHTTP: PushHTTPClients = .none
    ) throws {
        self.configuration = configuration
        self.database = database
        self.clock = clock
        let tokens = configuration.tokens
        let sealer = try KeyEncryptionKeys.sealer(for: configuration)
        self.sealer = sealer
        signingKeys = SigningKeyRing(
            repository: SQLSigningKeyRepository(database: database), sealer: sealer, clock: clock,
            rotationInterval: tokens.signingKeyRotationInterval, accessTokenLifetime: tokens.accessTokenLifetime)
        accessTokens = AccessTokens(
            keys: signingKeys, issuer: tokens.issuer, audiences: tokens.audiences, lifetime: tokens.accessTokenLifetime,
            clock: clock)
        audit = AuditTrail(repository: SQLAuditRepository(database: database), clock: clock)
        accounts = Accounts(repository: SQLAccountRepository(database: database), audit: audit, clock: clock)
        developmentAttestation = try Self.developmentAttestation(
            configuration, database: database, sealer: sealer, clock: clock)
        let deviceAttestation = DeviceAttestation(
            appAttest: try Self.appAttestVerifier(configuration), development: developmentAttestation,
            playIntegrity: try Self.playIntegrityVerifier(configuration),
            keys: SQLAppAttestKeyRepository(database: database), clock: clock)
        sessions = Sessions(
            repository: SQLSessionRepository(database: database), accessTokens: accessTokens,
            lifetimes: SessionLifetimes(
                standard: tokens.refreshTokenLifetime, rememberMe: tokens.rememberMeRefreshTokenLifetime,
                reuseGracePeriod: tokens.refreshReuseGracePeriod),
            audit: audit,
            binding: SessionBinding(
                mode: tokens.bindToAttestation, instances: deviceAttestation,
                outageGrace: tokens.playIntegrityOutageGrace),
            clock: clock)
        personalAccessTokens = PersonalAccessTokens(
            repository: SQLPersonalAccessTokenRepository(database: database), audit: audit,
            uses: PersonalAccessTokenUses(), clock: clock)
        freshSignIn = FreshSignIn(window: tokens.freshSignInWindow, clock: clock)
        credentialChanges = CredentialChanges(
            freshSignIn: freshSignIn, accounts: SQLAccountRepository(database: database), sessions: sessions)
        emailAddresses = Self.emailAddresses(
            configuration, sealer: sealer, audit: audit, database: database, clock: clock)
        accountRecoveries = AccountRecoveries(
            repository: SQLAccountRecoveryRepository(database: database), emailAddresses: emailAddresses,
            sessions: sessions, devices: SQLDeviceRepository(database: database), audit: audit,
            delay: configuration.email.recoveryDelay, clock: clock)
        emailSignIn = EmailSignIn(emailAddresses: emailAddresses, sessions: sessions, audit: audit)
        recoveryCodes = RecoveryCodes(
            repository: SQLRecoveryCodeRepository(database: database), sessions: sessions, audit: audit, clock: clock)
        challenges = ServerChallenges(repository: SQLServerChallengeRepository(database: database), clock: clock)
        let providerTokens = ProviderTokenVerifier(
            configuration.socialSignIn, firebase: configuration.firebase, http: providerHTTP, clock: clock)
        firebase = Self.firebase(
            configuration.firebase, verifier: providerTokens, accounts: accounts, emailAddresses: emailAddresses,
            database: database, clock: clock)
        bearerTokens = BearerTokenVerifier(
            accessTokens: accessTokens, personalAccessTokens: personalAccessTokens, sessions: sessions,
            firebase: firebase, clock: clock)
        handoffs = SessionHandoffs(challenges: challenges, accessTokens: accessTokens, sessions: sessions, clock: clock)
        passkeys = Passkeys(
            relyingParty: try Self.relyingParty(configuration),
            requireUserVerification: configuration.passkeys.requireUserVerification,
            clonePolicy: configuration.passkeys.clonedAuthenticators,
            repository: SQLPasskeyRepository(database: database),
            deviceKeys: SQLDeviceRepository(database: database),
            socialIdentities: SQLSocialAccountRepository(database: database), accounts: accounts,
            challenges: challenges, sessions: sessions,
            signInDevices: SignInDevices(
                repository: SQLDeviceRepository(database: database), audit: audit, clock: clock),
            audit: audit, maximumPerAccount: configuration.accountLimits.passkeys, clock: clock)
        stepUps = StepUps(
            passkeys: passkeys, sessions: sessions, emailAddresses: emailAddresses,
            accounts: SQLAccountRepository(database: database), challenges: challenges,
            devices: SQLDeviceRepository(database: database), freshSignIn: freshSignIn, clock: clock)
        accountPage = AccountPageSessions(
            repository: SQLSessionRepository(database: database), origins: Set(configuration.passkeys.origins),
            clock: clock)
        devices = Devices(
            repository: SQLDeviceRepository(database: database), challenges: challenges, sessions: sessions,
            audit: audit, settings: configuration.deviceKeys, maximumPerAccount: configuration.accountLimits.devices,
            clock: clock)
        requestLimits = RequestLimits(settings: configuration.rateLimits, clock: clock)
        socialSignIn = SocialSignIn(
            verifier: providerTokens, repository: SQLSocialAccountRepository(database: database),
            devices: SQLDeviceRepository(database: database), accounts: accounts,
            audit: audit, emailAddresses: emailAddresses,
            linkByVerifiedEmail: configuration.socialSignIn.linkByVerifiedEmail, recoveries: accountRecoveries,
            tokenLifetime: tokens.socialSignInTokenLifetime,
            appleTokens: try Self.appleTokens(
                configuration.socialSignIn, sealer: sealer, http: providerHTTP, database, clock),
            clock: clock)
        let healthSamples = SQLHealthSampleRepository(database: database)
        let rollups = HealthRollupWriter(priorities: configuration.health.sourcePriorities)
        healthConsents = HealthConsents(
            repository: SQLHealthConsentRepository(database: database), samples: healthSamples,
            attested: SQLHealthRepository(database: database), rollups: rollups, audit: audit, clock: clock)
        healthDaySources = HealthDaySources(
            attested: SQLHealthRepository(database: database), synced: healthSamples,
            priorities: configuration.health.sourcePriorities)
        health = HealthData(
            repository: SQLHealthRepository(database: database), synced: healthSamples, consents: healthConsents,
            challenges: challenges,
            attestation: deviceAttestation,
            plausibility: configuration.health.plausibility,
            requiredAttestation: configuration.health.requiredAttestation, clock: clock)
        healthSync = HealthSync(
            repository: healthSamples, consents: healthConsents, rollups: rollups,
            plausibility: configuration.health.plausibility,
            maximumSamplesRead: configuration.health.maximumSamplesReadPerSync, clock: clock)
        appleHealthImport = AppleHealthImport(sync: healthSync, limits: configuration.health.importLimits)
        healthImports = HealthImports(
            repository: SQLHealthImportRepository(database: database), importer: appleHealthImport,
            consents: healthConsents, clock: clock, directory: configuration.health.importsDirectory,
            maximumBytes: configuration.health.maximumImportBytes,
            minimumFreeBytes: configuration.health.minimumImportFreeBytes,
            timeSlice: configuration.health.importTimeSlice)
        healthRetention = HealthRetention(
            repository: healthSamples, attested: SQLHealthRepository(database: database), rollups: rollups,
            retentionDays: configuration.health.retentionDays, clock: clock)
        healthConnections = HealthConnections(
            repository: SQLHealthConnectionRepository(database: database), consents: healthConsents, clock: clock)
        healthDataRights = HealthDataRights(
            samples: healthSamples, attested: SQLHealthRepository(database: database), consents: healthConsents,
            connections: healthConnections, rollups: rollups, audit: audit, clock: clock)
        accountExport = AccountExport(
            records: SQLAccountRecordRepository(database: database), audit: audit, health: healthDataRights,
            clock: clock)
        provenance = ProvenanceStatements(
            store: SQLHealthSampleRepository(database: database),
            keys: ProvenanceKeys(
                repository: SQLProvenanceKeyRepository(database: database), sealer: sealer, clock: clock),
            issuer: tokens.issuer, clock: clock)
        fitnessChallenges = FitnessChallenges(
            repository: SQLFitnessChallengeRepository(database: database),
            plausibility: configuration.health.plausibility,
            maximumOpenPerCreator: configuration.accountLimits.fitnessChallenges, clock: clock)
        pushDelivery = try Self.pushDelivery(configuration.push, http: pushHTTP, database: database, clock: clock)
        mailDelivery = Self.mailDelivery(configuration, sealer: sealer, database: database, clock: clock)
        appleNotifications = AppleNotifications(
            verifier: providerTokens, repository: SQLSocialAccountRepository(database: database), audit: audit,
            clock: clock)
        adminKeys = AdminAPIKeys(repository: SQLAdminAPIKeyRepository(database: database), clock: clock)
        supabaseTables = SQLPostgRESTReader(database: database)
        confirmations = Confirmations(
            repository: SQLConfirmationRepository(database: database), accounts: accounts,
            devices: SQLDeviceRepository(database: database), recoveries: accountRecoveries, audit: audit,
            clock: clock, sendsWebhooks: configuration.confirmationWebhook != nil)
        if let settings = configuration.confirmationWebhook, let http = pushHTTP.webhook {
            confirmationWebhooks = ConfirmationWebhooks(
                repository: SQLConfirmationRepository(database: database), settings: settings, http: http,
                policy: PushRetryPolicy(
                    maxAttempts: configuration.push.maxAttempts, firstDelay: configuration.push.retryDelay,
                    maxDelay: configuration.push.maxRetryDelay),
                clock: clock)
        } else {
            confirmationWebhooks = nil
        }
        webhooks = Webhooks(
            repository: SQLWebhookRepository(database: database), sealer: sealer, settings: configuration.webhooks,
            http: pushHTTP.events, clock: clock)
    }

    private static func relyingParty(_ configuration: HaleConfiguration) throws -> RelyingParty {
        do {
            return try RelyingParty(
                id: configuration.passkeys.rpID, name: configuration.passkeys.rpName,
                origins: configuration.passkeys.origins,
                androidCertificateDigests: configuration.apps.android.map(\.certificateFingerprint))
        } catch {
            throw ConfigError("apps.android: \(error.message)")
        }
    }

    /// Seed 000's Firebase users, when `firebase.projectId` is set; custom tokens when a service account is too.
    private static func firebase(
        _ settings: HaleConfiguration.Firebase?, verifier: ProviderTokenVerifier, accounts: Accounts,
        emailAddresses: EmailAddresses, database: HaleDatabase, clock: HaleClock
    ) -> FirebaseAccounts? {
        guard let settings else { return nil }
        return FirebaseAccounts(
            verifier: verifier, repository: SQLSocialAccountRepository(database: database), accounts: accounts,
            emailAddresses: emailAddresses,
            customTokens: settings.serviceAccount.map {
                FirebaseCustomTokenSigner(serviceAccount: $0, now: { clock.now() })
            },
            clock: clock)
    }

    /// Apple's refresh tokens, when Apple's REST API is configured.
    private static func appleTokens(
        _ settings: HaleConfiguration.SocialSignIn, sealer: SecretSealer?, http: any SocialHTTPClient,
        _ database: HaleDatabase, _ clock: HaleClock
    ) throws -> AppleRefreshTokens? {
        guard let key = settings.appleKey else { return nil }
        return AppleRefreshTokens(
            api: try AppleRESTClient(key, settings: settings, http: http, clock: clock), sealer: sealer,
            legacy: try key.tokenEncryptionKey.map {
                try SecretBox(base64Key: $0, setting: "socialSignIn.apple.tokenEncryptionKey")
            },
            revocations: SQLAppleRevocationRepository(database: database), clock: clock)
    }

    /// The secrets kept in the database, to seal at start and rewrap; nil without a key-encryption key.
    public var secretsAtRest: SecretsAtRest? {
        sealer.map {
            SecretsAtRest(
                database: database, sealer: $0,
                legacyAppleBox: configuration.socialSignIn.appleKey?.tokenEncryptionKey.flatMap {
                    try? SecretBox(base64Key: $0, setting: "socialSignIn.apple.tokenEncryptionKey")
                })
        }
    }

    /// Makes sure a signing key and a provenance key exist, generating and storing them on first start, so the JWK
    /// Set verifiers cache holds both from the first.
    public func prepareSigningKey() async throws {
        _ = try await accessTokens.signer()
        _ = try await provenance.keys.signingKey()
    }

    /// Replaces the access-token signing key now; the old key verifies until its tokens expire.
    public func rotateSigningKey() async throws {
        try await signingKeys.rotate()
    }

    /// The public keys that verify access tokens and provenance statements.
    public func jwks() async throws -> JSONWebKeySet {
        var set = try await signingKeys.jwks()
        set.keys += try await provenance.keys.publicKeys()
        return set
    }
}

extension Application {
    private struct HaleServicesKey: StorageKey {
        typealias Value = HaleServices
    }

    /// Hale's services; set by `configure`.
    public var hale: HaleServices {
        get {
            guard let services = storage[HaleServicesKey.self] else {
                preconditionFailure("configure(_:_:) must run before Hale's services are used")
            }
            return services
        }
        set { storage[HaleServicesKey.self] = newValue }
    }
}
