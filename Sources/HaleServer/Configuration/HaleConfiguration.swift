import Crypto
import Foundation
import HealthSamples
import Logging

/// Hale's typed configuration, read from `ConfigValues` with the kinds `ConfigKey.all` declares.
public struct HaleConfiguration: Sendable {
    /// Where the HTTP server listens and what it accepts.
    public struct Server: Sendable {
        /// Address to listen on.
        public var host: String
        /// Port to listen on.
        public var port: Int
        /// Largest request body accepted, in bytes, except on bulk-upload routes.
        public var maxBodySize: Int
        /// How long `hale serve` lets requests in flight finish after SIGTERM before it closes their connections.
        public var shutdownGracePeriod: Duration
        /// How long a connection may send and receive nothing before it is closed.
        public var idleTimeout: Duration
        /// The reverse proxies whose `X-Forwarded-For` names the client.
        public var trustedProxies = TrustedProxies()
        /// The URL people and apps reach Hale at; nil when not configured.
        public var publicURL: URL?
        /// Where Hale keeps files of its own.
        public var dataDirectory: URL

        /// Whether Hale is known to be reached over HTTPS, so its pages send HSTS.
        public var isPublicHTTPS: Bool { publicURL?.scheme == "https" }
        /// `publicURL` without its trailing slashes: the issuer, and the base of the URLs Hale publishes.
        public var publicBase: String? {
            publicURL.map { url in
                var text = url.absoluteString
                while text.hasSuffix("/") { text.removeLast() }
                return text
            }
        }
        /// Whether the account page's cookies are `Secure`: unless `server.publicURL` says plain HTTP, so that a server
        /// upgraded without setting it fails closed (a browser accepts `Secure` cookies from `http://localhost` too).
        public var cookiesAreSecure: Bool { publicURL?.scheme != "http" }
    }

    /// The database.
    public struct Database: Sendable {
        /// Where the data lives.
        public var location: DatabaseLocation
        /// Whether `hale serve` migrates before it starts listening.
        public var migrateOnStart: Bool
    }

    /// Access tokens, refresh tokens and their signing keys.
    public struct Tokens: Sendable {
        /// The `iss` claim of access tokens: `tokens.issuer`, else `server.publicURL`, else `hale`.
        public var issuer: String
        /// The `aud` claim of access tokens; none when empty.
        public var audiences: [String] = []
        /// How long an access token is valid.
        public var accessTokenLifetime: Duration
        /// How long a session lasts without `rememberMe`.
        public var refreshTokenLifetime: Duration
        /// How long a session lasts with `rememberMe`.
        public var rememberMeRefreshTokenLifetime: Duration
        /// How long after a refresh the just-spent token may be retried without revoking the session.
        public var refreshReuseGracePeriod: Duration
        /// Whether sessions are bound to an attested app instance (`tokens.bindToAttestation`).
        public var bindToAttestation: SessionBinding.Mode = .off
        /// How long a session bound to Play Integrity may refresh unproved while Google's service is out
        /// (`tokens.playIntegrityOutageGrace`).
        public var playIntegrityOutageGrace: Duration = .zero
        /// Age at which the signing key is replaced by a new one.
        public var signingKeyRotationInterval: Duration
        /// How long a social sign-in's personal access token is valid.
        public var socialSignInTokenLifetime: Duration
        /// How recent a sign-in must be for operations that need one, such as deleting the account.
        public var freshSignInWindow: Duration
    }

    /// The WebAuthn relying party.
    public struct Passkeys: Sendable {
        /// The RP ID.
        public var rpID: String
        /// The RP name.
        public var rpName: String
        /// Allowed web origins.
        public var origins: [String]
        /// Whether user verification is required.
        public var requireUserVerification: Bool
        /// What a sign-in that shows a sign of a cloned authenticator gets.
        public var clonedAuthenticators: HaleServer.Passkeys.ClonePolicy
    }

    /// Device-bound keys (seed 002).
    public struct DeviceKeys: Sendable {
        /// Failed sign-in signatures in a row after which a device is locked out.
        public var lockoutThreshold: Int
        /// How long a locked-out device stays locked.
        public var lockoutDuration: Duration
    }

    /// Social sign-in (seed 003): the providers' settings.
    public struct SocialSignIn: Sendable {
        /// Whether a new identity may join the account with its verified email.
        public var linkByVerifiedEmail: Bool
        /// Clock difference allowed on exp and iat.
        public var clockSkew: Duration
        /// Google's accepted client ids and key set.
        public var googleClientIDs: [String]
        /// Google's JWK Set URL.
        public var googleKeySetURL: String
        /// Google's token info URL, for access tokens.
        public var googleTokenInfoURL: String
        /// Google's user info URL, for access tokens.
        public var googleUserInfoURL: String
        /// Apple's accepted audiences.
        public var appleAudiences: [String]
        /// Apple's JWK Set URL.
        public var appleKeySetURL: String
        /// The Sign in with Apple key for Apple's REST API, when configured.
        public var appleKey: AppleKey?
        /// Apple's token endpoint.
        public var appleTokenURL: String
        /// Apple's revocation endpoint.
        public var appleRevokeURL: String
        /// The Facebook app id; empty when Facebook is off.
        public var facebookAppID: String
        /// The Facebook app secret.
        public var facebookAppSecret: String
        /// The Graph API base URL.
        public var facebookGraphURL: String
        /// The Graph API version, such as `v22.0`.
        public var facebookGraphVersion: String
        /// Facebook's Limited Login JWK Set URL.
        public var facebookKeySetURL: String
    }

    /// A Sign in with Apple key, and the key that sealed Apple's refresh tokens before the key-encryption key did.
    public struct AppleKey: Sendable {
        /// The team id.
        public var teamID: String
        /// The key id.
        public var keyID: String
        /// The .p8 PEM.
        public var privateKeyPEM: String
        /// 32 bytes, base64: opens tokens sealed before the key-encryption key sealed them; nil when none remain.
        public var tokenEncryptionKey: String?
    }

    /// Seed 001's health data: device attestation and plausibility.
    public struct Health: Sendable {
        /// The App Attest environment.
        public var appAttestEnvironment: String
        /// The App Attest root PEM; empty for Apple's.
        public var appAttestRootCertificate: String
        /// Whether App Attest chains to the installation's development CA are accepted too.
        public var appAttestDevelopmentMode: Bool
        /// Play Integrity's decryption key, base64.
        public var playIntegrityDecryptionKey: String
        /// Play Integrity's verification key, base64.
        public var playIntegrityVerificationKey: String
        /// Accepted app recognition verdicts.
        public var appRecognitionVerdicts: [String]
        /// The required device recognition verdict.
        public var deviceRecognitionVerdict: String
        /// Accepted licensing verdicts; empty for unchecked.
        public var licensingVerdicts: [String]
        /// How old a Play Integrity token may be.
        public var playIntegrityMaximumAge: Duration
        /// The plausibility limits every route that takes health data applies.
        public var plausibility: HealthPlausibility
        /// Which routes that write health data require an attestation.
        public var requiredAttestation: HealthData.RequiredAttestation
        /// Days synced health data is kept; 0 keeps it.
        public var retentionDays: Int
        /// The most stored samples one sync reads back to recompute the days it changes.
        public var maximumSamplesReadPerSync: Int
        /// Which sources count where samples overlap, per type.
        public var sourcePriorities: SourcePriorities
        /// Where uploaded exports wait to be imported; every instance needs the same directory.
        public var importsDirectory: URL
        /// The largest export upload taken, in bytes.
        public var maximumImportBytes: Int64
        /// How much one import may read.
        public var importLimits: AppleHealthImport.Limits
        /// The free space an upload must leave in the imports directory.
        public var minimumImportFreeBytes: Int64
        /// How long an import runs while another account's waits.
        public var importTimeSlice: Duration
        /// Whether this instance imports uploaded exports.
        public var importsWorker: Bool
    }

    /// The request budgets of the routes that do work for anyone, or mint single-use values or verify proofs.
    public struct RateLimits: Sendable {
        private var rules: [RateLimitBudget: RateLimit]

        /// Reads `rateLimits.<budget>` for every budget.
        init(_ values: ConfigValues) throws {
            rules = [:]
            for budget in RateLimitBudget.allCases {
                let text = try values.string(budget.configPath)
                guard let rule = RateLimit(text) else {
                    throw ConfigError("\(budget.configPath) must be COUNT/DURATION, such as 30/1m, not \"\(text)\"")
                }
                rules[budget] = rule
            }
        }

        /// The rule of `budget`.
        public subscript(_ budget: RateLimitBudget) -> RateLimit {
            guard let rule = rules[budget] else {
                preconditionFailure("init reads a rule for every budget")
            }
            return rule
        }
    }

    /// How much one account may own: each a 409 `LIMIT_REACHED` beyond it.
    public struct AccountLimits: Sendable {
        /// Passkeys.
        public var passkeys: Int
        /// Registered devices, deactivated ones included.
        public var devices: Int
        /// Fitness challenges the account created that have not ended.
        public var fitnessChallenges: Int
    }

    /// The key-encryption keys, as configured (`KeyEncryptionKeys` decides which to use).
    public struct Secrets: Sendable {
        /// `secrets.keyEncryptionKey`; nil when not set.
        public var keyEncryptionKey: String?
        /// `secrets.previousKeyEncryptionKeys`.
        public var previousKeyEncryptionKeys: [String]
    }

    /// One Android app: its package and the SHA-256 fingerprint of its signing certificate.
    public struct AndroidApp: Sendable, Equatable {
        /// The package name.
        public var packageName: String
        /// The fingerprint, colon-separated uppercase hex.
        public var certificateFingerprint: String
    }

    /// The mobile apps that use this server.
    public struct Apps: Sendable {
        /// iOS apps as `TEAMID.bundle.id`.
        public var apple: [String]
        /// Android apps.
        public var android: [AndroidApp]
    }

    /// Server settings.
    public var server: Server
    /// Database settings.
    public var database: Database
    /// Token settings.
    public var tokens: Tokens
    /// The WebAuthn relying party.
    public var passkeys: Passkeys
    /// Device-bound keys.
    public var deviceKeys: DeviceKeys
    /// Rate limits.
    public var rateLimits: RateLimits
    /// Social sign-in.
    public var socialSignIn: SocialSignIn
    /// Firebase Authentication for seed 000's apps; nil when `firebase.projectId` is not set.
    public var firebase: Firebase?
    /// Health data.
    public var health: Health
    /// What one account may own.
    public var accountLimits: AccountLimits
    /// The apps.
    public var apps: Apps
    /// Push delivery.
    public var push: Push
    /// Mail delivery and email codes.
    public var email: Email
    /// The key-encryption keys.
    public var secrets: Secrets
    /// The webhook confirmation answers are sent to, if any.
    public var confirmationWebhook: ConfirmationWebhook?
    /// Events for the app's backend: how they are delivered.
    public var webhooks: Webhooks
    /// Where traces go, if anywhere.
    public var tracing: Traces
    /// The keys the Supabase-compatible surface takes as `apikey`.
    public var supabasePublishableKeys: [String]
    /// The minimum level of log lines written.
    public var logLevel: Logger.Level
    /// The bearer token `/metrics` requires; nil when it is open.
    public var metricsBearerToken: String?
    /// Mistakes in the configuration that do not stop Hale, logged as warnings when it starts.
    public var warnings: [String]

    /// Reads every key, applying defaults; throws a `ConfigError` naming the first bad value.
    public init(_ values: ConfigValues) throws {
        database = Database(
            location: try DatabaseLocation(url: try values.string("database.url")),
            migrateOnStart: try values.boolean("database.migrateOnStart"))
        let port = try values.integer("server.port")
        server = Server(
            host: try values.string("server.host"),
            port: port,
            maxBodySize: try values.byteSize("server.maxBodySize"),
            shutdownGracePeriod: try values.duration("server.shutdownGracePeriod"),
            idleTimeout: try values.duration("server.idleTimeout"),
            publicURL: try Self.publicURL(try values.string("server.publicURL")),
            dataDirectory: Self.dataDirectory(try values.string("server.dataDirectory"), for: database.location))
        tokens = Tokens(
            issuer: Self.issuer(try values.string("tokens.issuer"), server: server),
            audiences: try Self.audiences(try values.list("tokens.audiences")),
            accessTokenLifetime: try values.duration("tokens.accessTokenLifetime"),
            refreshTokenLifetime: try values.duration("tokens.refreshTokenLifetime"),
            rememberMeRefreshTokenLifetime: try values.duration("tokens.rememberMeRefreshTokenLifetime"),
            refreshReuseGracePeriod: try values.duration("tokens.refreshReuseGracePeriod"),
            signingKeyRotationInterval: try values.duration("tokens.signingKeyRotationInterval"),
            socialSignInTokenLifetime: try values.duration("tokens.socialSignInTokenLifetime"),
            freshSignInWindow: try values.duration("tokens.freshSignInWindow"))
        tokens.bindToAttestation = try Self.sessionBinding(values)
        tokens.playIntegrityOutageGrace = try values.durationOrOff("tokens.playIntegrityOutageGrace")
        passkeys = Passkeys(
            rpID: try values.string("passkeys.rpId"), rpName: try values.string("passkeys.rpName"),
            origins: try values.list("passkeys.origins"),
            requireUserVerification: try values.boolean("passkeys.requireUserVerification"),
            clonedAuthenticators: try Self.clonePolicy(values))
        deviceKeys = DeviceKeys(
            lockoutThreshold: try values.integer("deviceKeys.lockoutThreshold"),
            lockoutDuration: try values.duration("deviceKeys.lockoutDuration"))
        server.trustedProxies = try TrustedProxies(try values.list("server.trustedProxies"))
        rateLimits = try RateLimits(values)
        socialSignIn = SocialSignIn(
            linkByVerifiedEmail: try values.boolean("socialSignIn.linkByVerifiedEmail"),
            clockSkew: try values.duration("socialSignIn.clockSkew"),
            googleClientIDs: try values.list("socialSignIn.google.clientIds"),
            googleKeySetURL: try values.string("socialSignIn.google.keySetUrl"),
            googleTokenInfoURL: try values.string("socialSignIn.google.tokenInfoUrl"),
            googleUserInfoURL: try values.string("socialSignIn.google.userInfoUrl"),
            appleAudiences: try values.list("socialSignIn.apple.audiences"),
            appleKeySetURL: try values.string("socialSignIn.apple.keySetUrl"),
            appleKey: try Self.appleKey(values),
            appleTokenURL: try values.string("socialSignIn.apple.tokenUrl"),
            appleRevokeURL: try values.string("socialSignIn.apple.revokeUrl"),
            facebookAppID: try values.string("socialSignIn.facebook.appId"),
            facebookAppSecret: try values.string("socialSignIn.facebook.appSecret"),
            facebookGraphURL: try values.string("socialSignIn.facebook.graphUrl"),
            facebookGraphVersion: try values.string("socialSignIn.facebook.graphVersion"),
            facebookKeySetURL: try values.string("socialSignIn.facebook.keySetUrl"))
        firebase = try Self.firebase(values)
        health = Health(
            appAttestEnvironment: try values.string("appAttest.environment"),
            appAttestRootCertificate: try values.string("appAttest.rootCertificate"),
            appAttestDevelopmentMode: try values.boolean("appAttest.developmentMode"),
            playIntegrityDecryptionKey: try values.string("playIntegrity.decryptionKey"),
            playIntegrityVerificationKey: try values.string("playIntegrity.verificationKey"),
            appRecognitionVerdicts: try values.list("playIntegrity.appRecognitionVerdicts"),
            deviceRecognitionVerdict: try values.string("playIntegrity.deviceRecognitionVerdict"),
            licensingVerdicts: try values.list("playIntegrity.licensingVerdicts"),
            playIntegrityMaximumAge: try values.duration("playIntegrity.maximumAge"),
            plausibility: try Self.plausibility(values),
            requiredAttestation: try Self.requiredAttestation(values),
            retentionDays: try values.integer("health.retentionDays"),
            maximumSamplesReadPerSync: try values.integer("health.maxSamplesReadPerSync"),
            sourcePriorities: try SourcePriorities(
                devices: try values.list("health.sourcePriority.devices"),
                apps: try values.list("health.sourcePriority.apps")),
            importsDirectory: Self.importsDirectory(
                try values.string("health.imports.directory"), in: server.dataDirectory),
            maximumImportBytes: Int64(try values.byteSize("health.imports.maxBytes")),
            importLimits: AppleHealthImport.Limits(
                maximumXMLBytes: Int64(try values.byteSize("health.imports.maxXMLBytes")),
                maximumRecords: try values.integer("health.imports.maxRecords")),
            minimumImportFreeBytes: Int64(try values.byteSize("health.imports.minFreeBytes")),
            importTimeSlice: try values.duration("health.imports.timeSlice"),
            importsWorker: try values.boolean("health.imports.worker"))
        accountLimits = AccountLimits(
            passkeys: try Self.accountLimit(values, "accountLimits.passkeys"),
            devices: try Self.accountLimit(values, "accountLimits.devices"),
            fitnessChallenges: try Self.accountLimit(values, "accountLimits.fitnessChallenges"))
        apps = Apps(
            apple: try values.list("apps.apple"), android: try values.list("apps.android").map(Self.androidApp))
        push = try Self.push(values)
        email = try Self.email(
            values, dataDirectory: server.dataDirectory,
            addressesPerAccount: try Self.accountLimit(values, "accountLimits.emailAddresses"))
        confirmationWebhook = try Self.confirmationWebhook(values)
        webhooks = try Self.webhooks(values)
        tracing = try Self.tracing(values)
        supabasePublishableKeys = try values.list("supabase.publishableKeys")
        let keyEncryptionKey = try values.string("secrets.keyEncryptionKey")
        secrets = Secrets(
            keyEncryptionKey: keyEncryptionKey.isEmpty ? nil : keyEncryptionKey,
            previousKeyEncryptionKeys: try values.list("secrets.previousKeyEncryptionKeys"))
        logLevel = try Self.logLevel(try values.string("logging.level"))
        metricsBearerToken = try Self.metricsBearerToken(values)
        warnings = values.warnings
        try validate()
    }

    /// The plausibility table from the `health.max*` and `health.sampleWindow.*` keys.
    private static func plausibility(_ values: ConfigValues) throws -> HealthPlausibility {
        var limits: [HealthSampleType: HealthPlausibility.Limit] = [:]
        let durations = try SampleDurations(try values.list("health.maxSampleDuration"))
        let perDay: [(HealthSampleType, Double)] = [
            (.steps, try dailyMaximum(values, "health.maxSteps")),
            (.distance, try dailyMaximum(values, "health.maxDistance")),
            (.calories, try dailyMaximum(values, "health.maxCalories")),
            (.activeMinutes, try dailyMaximum(values, "health.maxDuration")),
            (.workouts, try dailyMaximum(values, "health.maxDuration")),
            (.oxygenSaturation, 100),
        ]
        for (type, maximum) in perDay {
            limits[type] = HealthPlausibility.Limit(maximumPerDay: maximum, longestSample: durations.longest(type))
        }
        return HealthPlausibility(
            limits: limits, oldestStart: try values.duration("health.sampleWindow.past").timeInterval,
            newestStart: try values.duration("health.sampleWindow.future").timeInterval)
    }

    /// A daily maximum: a whole number from 1 to a trillion, so that its hundredths and sums fit in 64 bits.
    private static func dailyMaximum(_ values: ConfigValues, _ path: String) throws -> Double {
        let value = try values.integer(path)
        guard (1...1_000_000_000_000).contains(value) else {
            throw ConfigError("\(path) must be between 1 and 1000000000000, not \(value)")
        }
        return Double(value)
    }

    /// At least 32 characters when set: it is compared, not looked up, so only its length keeps it from being guessed.
    private static func metricsBearerToken(_ values: ConfigValues) throws -> String? {
        let token = try values.string("metrics.bearerToken")
        guard !token.isEmpty else { return nil }
        guard token.count >= 32, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ConfigError("metrics.bearerToken must be at least 32 printable ASCII characters")
        }
        return token
    }

    /// `health.imports.directory`; when empty, `imports` in the data directory.
    static func importsDirectory(_ text: String, in data: URL) -> URL {
        guard text.isEmpty else { return URL(fileURLWithPath: text, isDirectory: true) }
        return data.appendingPathComponent("imports", isDirectory: true)
    }

    /// `server.dataDirectory`; when empty, the folder of the SQLite file, or `hale-data` in the working directory.
    static func dataDirectory(_ text: String, for database: DatabaseLocation) -> URL {
        guard text.isEmpty else { return URL(fileURLWithPath: text, isDirectory: true).standardizedFileURL }
        switch database {
        case .sqlite(let path):
            return URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        case .postgres:
            return URL(fileURLWithPath: "hale-data", isDirectory: true).standardizedFileURL
        }
    }

    /// The issuer: the one configured, else the public URL without its trailing slash (as OpenID Connect Discovery
    /// compares issuers as strings), else `hale`.
    static func issuer(_ configured: String, server: Server) -> String {
        guard configured.isEmpty else { return configured }
        return server.publicBase ?? "hale"
    }

    /// `tokens.audiences`: each a non-empty value of printable ASCII without spaces, at most 256 bytes.
    static func audiences(_ values: [String]) throws -> [String] {
        for value in values
        where value.isEmpty || value.utf8.count > 256 || !value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            throw ConfigError(
                "tokens.audiences must name values of printable ASCII without spaces, at most 256 bytes, not \"\(value)\""
            )
        }
        return values
    }

    /// `server.publicURL`: an absolute http or https URL without a query; nil when empty.
    static func publicURL(_ text: String) throws -> URL? {
        guard !text.isEmpty else { return nil }
        guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host?.isEmpty == false,
            url.query == nil, url.fragment == nil
        else {
            throw ConfigError(
                "server.publicURL must be an http or https URL such as https://id.example.com, not \"\(text)\"")
        }
        return url
    }

    private static func sessionBinding(_ values: ConfigValues) throws -> SessionBinding.Mode {
        let text = try values.string("tokens.bindToAttestation")
        guard let mode = SessionBinding.Mode(rawValue: text) else {
            throw ConfigError("tokens.bindToAttestation must be off, attested or required, not \"\(text)\"")
        }
        return mode
    }

    private static func requiredAttestation(_ values: ConfigValues) throws -> HealthData.RequiredAttestation {
        let text = try values.string("health.requireAttestation")
        guard let required = HealthData.RequiredAttestation(rawValue: text) else {
            throw ConfigError("health.requireAttestation must be uploads or all, not \"\(text)\"")
        }
        return required
    }

    private static func clonePolicy(_ values: ConfigValues) throws -> HaleServer.Passkeys.ClonePolicy {
        let text = try values.string("passkeys.clonedAuthenticators")
        guard let policy = HaleServer.Passkeys.ClonePolicy(rawValue: text) else {
            throw ConfigError("passkeys.clonedAuthenticators must be refuse or flag, not \"\(text)\"")
        }
        return policy
    }

    /// A count an account may own: 1 to 100,000.
    private static func accountLimit(_ values: ConfigValues, _ path: String) throws -> Int {
        let value = try values.integer(path)
        guard (1...100_000).contains(value) else {
            throw ConfigError("\(path) must be between 1 and 100000, not \(value)")
        }
        return value
    }

    /// All three Apple key settings or none, and the old sealing key if it is still needed.
    private static func appleKey(_ values: ConfigValues) throws -> AppleKey? {
        let paths = ["teamId", "keyId", "privateKey"].map { "socialSignIn.apple.\($0)" }
        let given = try paths.map { try values.string($0) }
        if given.allSatisfy(\.isEmpty) { return nil }
        if let missing = zip(paths, given).first(where: { $0.1.isEmpty }) {
            throw ConfigError("\(missing.0) is required with the other socialSignIn.apple key settings")
        }
        let legacy = try values.string("socialSignIn.apple.tokenEncryptionKey")
        return AppleKey(
            teamID: given[0], keyID: given[1], privateKeyPEM: given[2],
            tokenEncryptionKey: legacy.isEmpty ? nil : legacy)
    }

    private func validate() throws {
        guard (1...65_535).contains(server.port) else {
            throw ConfigError("server.port must be between 1 and 65535, not \(server.port)")
        }
        guard server.shutdownGracePeriod <= .seconds(300) else {
            throw ConfigError("server.shutdownGracePeriod must be at most 5m")
        }
        guard tokens.signingKeyRotationInterval > tokens.accessTokenLifetime else {
            throw ConfigError("tokens.signingKeyRotationInterval must be longer than tokens.accessTokenLifetime")
        }
        guard tokens.refreshReuseGracePeriod <= .seconds(3600) else {
            throw ConfigError("tokens.refreshReuseGracePeriod must be at most 1h")
        }
        guard tokens.playIntegrityOutageGrace <= .seconds(7 * 86_400) else {
            throw ConfigError("tokens.playIntegrityOutageGrace must be at most 7d")
        }
        guard tokens.freshSignInWindow >= .seconds(1), tokens.freshSignInWindow <= .seconds(3600) else {
            throw ConfigError("tokens.freshSignInWindow must be between 1s and 1h")
        }
        guard (1...1000).contains(deviceKeys.lockoutThreshold) else {
            throw ConfigError("deviceKeys.lockoutThreshold must be between 1 and 1000")
        }
        guard (HealthSync.maximumBatch...1_000_000_000).contains(health.maximumSamplesReadPerSync) else {
            throw ConfigError("health.maxSamplesReadPerSync must be between \(HealthSync.maximumBatch) and 1000000000")
        }
        guard health.importLimits.maximumRecords >= 1, health.importLimits.maximumXMLBytes >= 1 << 20 else {
            throw ConfigError("health.imports.maxRecords must be at least 1, and health.imports.maxXMLBytes 1MiB")
        }
        guard health.importTimeSlice >= .zero, health.importTimeSlice <= .seconds(3600) else {
            throw ConfigError("health.imports.timeSlice must be between 0s and 1h")
        }
        if let key = secrets.keyEncryptionKey {
            _ = try SecretSealer.Key(base64: key, setting: "secrets.keyEncryptionKey")
        }
        for key in secrets.previousKeyEncryptionKeys {
            _ = try SecretSealer.Key(base64: key, setting: "secrets.previousKeyEncryptionKeys")
        }
        guard (0...36_500).contains(health.retentionDays) else {
            throw ConfigError("health.retentionDays must be between 0 (keep) and 36500")
        }
        try socialSignIn.validate()
    }

    private static func androidApp(_ entry: String) throws -> AndroidApp {
        let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let hex = parts.count == 2 ? parts[1].replacingOccurrences(of: ":", with: "") : ""
        guard parts.count == 2, !parts[0].isEmpty, hex.count == 64, hex.allSatisfy(\.isHexDigit) else {
            throw ConfigError("apps.android entries must be package.name=SHA256_FINGERPRINT, not \"\(entry)\"")
        }
        let pairs = stride(from: 0, to: 64, by: 2).map { index -> String in
            let start = hex.index(hex.startIndex, offsetBy: index)
            return String(hex[start..<hex.index(start, offsetBy: 2)]).uppercased()
        }
        return AndroidApp(packageName: parts[0], certificateFingerprint: pairs.joined(separator: ":"))
    }

    /// Any level, `trace` included: below `info`, only Hale's own lines are written (`HaleLogHandler`).
    private static func logLevel(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ConfigError("logging.level must be one of trace, debug, info, notice, warning, error, critical")
        }
        return level
    }
}

extension HaleConfiguration.SocialSignIn {
    /// Provider endpoints must be HTTPS, except on loopback, where tests run fake providers.
    func validate() throws {
        let endpoints = [
            ("socialSignIn.google.keySetUrl", googleKeySetURL), ("socialSignIn.apple.keySetUrl", appleKeySetURL),
            ("socialSignIn.google.tokenInfoUrl", googleTokenInfoURL),
            ("socialSignIn.google.userInfoUrl", googleUserInfoURL),
            ("socialSignIn.facebook.graphUrl", facebookGraphURL),
            ("socialSignIn.facebook.keySetUrl", facebookKeySetURL), ("socialSignIn.apple.tokenUrl", appleTokenURL),
            ("socialSignIn.apple.revokeUrl", appleRevokeURL),
        ]
        for (path, text) in endpoints {
            guard let url = URL(string: text), let host = url.host, Self.isSecure(url, host: host) else {
                throw ConfigError("\(path) must be an https URL (http only on loopback), not \"\(text)\"")
            }
        }
        if let legacy = appleKey?.tokenEncryptionKey {
            _ = try SecretBox(base64Key: legacy, setting: "socialSignIn.apple.tokenEncryptionKey")
        }
        guard clockSkew <= .seconds(600) else { throw ConfigError("socialSignIn.clockSkew must be at most 10m") }
        guard facebookAppID.isEmpty || !facebookAppSecret.isEmpty else {
            throw ConfigError("socialSignIn.facebook.appSecret is required when socialSignIn.facebook.appId is set")
        }
    }

    static func isSecure(_ url: URL, host: String) -> Bool {
        switch url.scheme {
        case "https": true
        case "http": ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        default: false
        }
    }
}
