/// One configuration key: its dotted path, the kind of value it takes, its default and what it means.
///
/// `ConfigKey.all` is the single list of keys: the loader rejects keys not in it, environment overrides are derived
/// from it, and `docs/configuration.md` is generated from it (`hale config reference`).
public struct ConfigKey: Sendable, Hashable {
    /// The kind of value a key takes.
    public enum Kind: String, Sendable {
        /// Text.
        case string
        /// A whole number.
        case integer
        /// `true` or `false`.
        case boolean
        /// A length of time such as `15m`, `10s`, `30d`.
        case duration
        /// A size in bytes such as `1MiB` or `512KiB`.
        case byteSize = "byte size"
        /// A list of text values; comma-separated in the environment.
        case list
    }

    /// The dotted path, such as `server.port`.
    public let path: String
    /// The kind of value.
    public let kind: Kind
    /// The default, as it would be written in the YAML file; empty when the key has none.
    public let defaultValue: String
    /// What the key controls.
    public let summary: String
    /// The document that says more, as a path from the repository's root with an optional `#anchor`; nil when the
    /// summary says it all.
    public let seeAlso: String?

    init(path: String, kind: Kind, defaultValue: String, summary: String, seeAlso: String? = nil) {
        self.path = path
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
        self.seeAlso = seeAlso
    }

    /// The environment variable naming a file whose text is the key's value: `environmentVariable` and `_FILE`, as
    /// container secrets are given.
    public var fileVariable: String { environmentVariable + "_FILE" }

    /// The environment variable that overrides the key: `HALE_` and the path in upper snake case, an acronym one
    /// word (`server.publicURL` is `HALE_SERVER_PUBLIC_URL`).
    public var environmentVariable: String {
        var name = "HALE_"
        let characters = Array(path)
        for (index, character) in characters.enumerated() {
            if character == "." {
                name.append("_")
                continue
            }
            let previous = index > 0 ? characters[index - 1] : "."
            let next = index + 1 < characters.count ? characters[index + 1] : "."
            let startsWord =
                character.isUppercase
                && (previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && next.isLowercase))
            if startsWord { name.append("_") }
            name.append(contentsOf: character.uppercased())
        }
        return name
    }
}

extension ConfigKey {
    /// Every configuration key Hale knows.
    public static let all: [ConfigKey] = [
        ConfigKey(path: "server.host", kind: .string, defaultValue: "127.0.0.1", summary: "Address to listen on."),
        ConfigKey(path: "server.port", kind: .integer, defaultValue: "8080", summary: "Port to listen on."),
        ConfigKey(
            path: "server.maxBodySize", kind: .byteSize, defaultValue: "64KiB",
            summary: "Largest request body accepted on a route that sets no limit of its own.",
            seeAlso: "docs/operations.md#request-body-limits"),
        ConfigKey(
            path: "server.shutdownGracePeriod", kind: .duration, defaultValue: "5s",
            summary:
                "After SIGTERM or SIGINT, how long `hale serve` lets requests in flight finish before it closes their connections and exits; at most 5m."
        ),
        ConfigKey(
            path: "server.idleTimeout", kind: .duration, defaultValue: "75s",
            summary: "A connection that sends and receives nothing for this long is closed."),
        ConfigKey(
            path: "server.publicURL", kind: .string, defaultValue: "",
            summary:
                "The URL people and apps reach Hale at, such as `https://id.example.com`: with `https` its pages send"
                + " HSTS. The account page's cookies are `Secure` unless it is `http://…`, whatever `Host` a proxy"
                + " forwards; empty, they are `Secure` and `hale serve` warns (browsers other than Safari keep them on"
                + " `http://localhost`)."),
        ConfigKey(
            path: "server.dataDirectory", kind: .string, defaultValue: "",
            summary:
                "Where Hale keeps files of its own (uploads waiting to be imported, an embedded installation's"
                + " key-encryption key). Empty: the folder of the SQLite file, or `hale-data` in the working directory"
                + " under PostgreSQL. Made `0700`; `hale serve` refuses one that another user owns or may write."),
        ConfigKey(
            path: "database.url", kind: .string, defaultValue: "sqlite:hale.sqlite",
            summary: "`sqlite:PATH` for an embedded SQLite file, or a `postgres://user:pass@host:port/db` URL."),
        ConfigKey(
            path: "database.migrateOnStart", kind: .boolean, defaultValue: "true",
            summary: "Run pending migrations when `hale serve` starts."),
        ConfigKey(
            path: "tokens.issuer", kind: .string, defaultValue: "",
            summary:
                "The `iss` claim of access tokens and the `issuer` of `/.well-known/openid-configuration`. Empty:"
                + " `server.publicURL` without its trailing slash when it is set, else `hale`."),
        ConfigKey(
            path: "tokens.audiences", kind: .list, defaultValue: "",
            summary:
                "The `aud` claim of access tokens: one value is written as a string, several as an array. A resource"
                + " server that verifies Hale's tokens requires its own. Empty: no `aud`."),
        ConfigKey(
            path: "tokens.accessTokenLifetime", kind: .duration, defaultValue: "15m",
            summary: "How long an access token is valid."),
        ConfigKey(
            path: "tokens.refreshTokenLifetime", kind: .duration, defaultValue: "7d",
            summary: "How long a session lasts without `rememberMe`."),
        ConfigKey(
            path: "tokens.rememberMeRefreshTokenLifetime", kind: .duration, defaultValue: "30d",
            summary: "How long a session lasts with `rememberMe`."),
        ConfigKey(
            path: "tokens.refreshReuseGracePeriod", kind: .duration, defaultValue: "10s",
            summary: "How long after a refresh the just-spent token may be retried without revoking the session."),
        ConfigKey(
            path: "tokens.bindToAttestation", kind: .string, defaultValue: "off",
            summary:
                "`off`: sessions are bearer sessions. `attested`: a session opened on a device with an App Attest key"
                + " Hale verified, or one whose refresh proves such a key, is bound to it: each refresh carries a fresh"
                + " assertion by that key, and one without is refused and ends the session. `required`: a session"
                + " that cannot be bound is refused at its first refresh.",
            seeAlso: "docs/api/sessions.md#sessions-bound-to-an-attested-app-instance-tokensbindtoattestation"),
        ConfigKey(
            path: "tokens.playIntegrityOutageGrace", kind: .string, defaultValue: "off",
            summary:
                "`off`, or how long after its last proved refresh a session bound to an Android app by Play Integrity"
                + " may refresh without a token while the app reports Google's service unreachable"
                + " (`X-Attestation-Unavailable`), each such refresh audited. At most 7d.",
            seeAlso: "docs/api/sessions.md#android-play-integrity"),
        ConfigKey(
            path: "tokens.signingKeyRotationInterval", kind: .duration, defaultValue: "30d",
            summary: "Age at which the access-token signing key is replaced; old keys verify until their tokens expire."
        ),
        ConfigKey(
            path: "tokens.socialSignInTokenLifetime", kind: .duration, defaultValue: "30d",
            summary: "How long the personal access token a social sign-in (seed 003) issues is valid."),
        ConfigKey(
            path: "tokens.freshSignInWindow", kind: .duration, defaultValue: "5m",
            summary:
                "How recent a passkey, device-key or social sign-in (or a step-up) must be to add or remove a"
                + " credential, sign out everywhere or delete the account; at most 1h."),
        ConfigKey(
            path: "passkeys.rpId", kind: .string, defaultValue: "localhost",
            summary:
                "The WebAuthn relying-party ID: the registrable domain passkeys are bound to, such as `example.com`."),
        ConfigKey(
            path: "passkeys.rpName", kind: .string, defaultValue: "Hale",
            summary: "The relying-party name that passkey prompts show."),
        ConfigKey(
            path: "passkeys.origins", kind: .list, defaultValue: "http://localhost:8080",
            summary:
                "Web origins passkey ceremonies may come from. The apps' `android:apk-key-hash:` origins are added from `apps.android`."
        ),
        ConfigKey(
            path: "passkeys.requireUserVerification", kind: .boolean, defaultValue: "false",
            summary: "Refuse passkey ceremonies in which the authenticator did not verify the user (biometrics or PIN)."
        ),
        ConfigKey(
            path: "passkeys.clonedAuthenticators", kind: .string, defaultValue: "refuse",
            summary:
                "A passkey sign-in whose counter went back or whose backup eligibility changed, signature valid: `refuse`"
                + " it, or `flag` it and let it in. Either way the passkey is marked, the event audited and the account's"
                + " devices alerted."),
        ConfigKey(
            path: "deviceKeys.lockoutThreshold", kind: .integer, defaultValue: "5",
            summary:
                "Failed device-key sign-in signatures from one client address, each within `deviceKeys.lockoutDuration` of the one before, after which that address is locked out of the device; the owner elsewhere is not.",
            seeAlso: "docs/api/rate-limits.md#device-key-lockout"),
        ConfigKey(
            path: "deviceKeys.lockoutDuration", kind: .duration, defaultValue: "15m",
            summary:
                "How long a client address stays locked out of a device after too many failed signatures, and how long a failure is remembered."
        ),
        ConfigKey(
            path: "server.trustedProxies", kind: .list, defaultValue: "",
            summary:
                "Addresses and CIDR ranges (IPv4, IPv6) of the reverse proxies in front of Hale. A request from one of them is the client's that its `X-Forwarded-For` names: the rightmost address there that is not a trusted proxy. Empty: the connecting peer is the client and the header is ignored.",
            seeAlso: "docs/api/rate-limits.md#the-client-address"),
        ConfigKey(
            path: "rateLimits.signInPerIp", kind: .string, defaultValue: "60/1m",
            summary:
                "Passkey sign-up and sign-in requests (options and verify) and handoff redemptions allowed per client address (an IPv4 address or an IPv6 /64), as `COUNT/DURATION`; counted per instance.",
            seeAlso: "docs/api/rate-limits.md"),
        ConfigKey(
            path: "rateLimits.refreshPerIp", kind: .string, defaultValue: "120/1m",
            summary: "Refresh-token exchanges allowed per client address, as `COUNT/DURATION`; per instance."),
        ConfigKey(
            path: "rateLimits.deviceKeysPerIp", kind: .string, defaultValue: "60/1m",
            summary:
                "Device-key challenge and verify requests, registration and sign-in, allowed per client address, as `COUNT/DURATION`; per instance."
        ),
        ConfigKey(
            path: "rateLimits.deviceKeysPerFingerprint", kind: .string, defaultValue: "10/1m",
            summary:
                "Device-key sign-in challenges allowed per device fingerprint from one client address, as `COUNT/DURATION`; per instance."
        ),
        ConfigKey(
            path: "rateLimits.socialSignInPerIp", kind: .string, defaultValue: "30/1m",
            summary: "Social sign-in requests allowed per client address, as `COUNT/DURATION`; per instance."),
        ConfigKey(
            path: "rateLimits.appleNotificationsPerIp", kind: .string, defaultValue: "600/1m",
            summary:
                "Sign in with Apple server notifications allowed per sending address, as `COUNT/DURATION`; per instance."
        ),
        ConfigKey(
            path: "rateLimits.attestationPerAccount", kind: .string, defaultValue: "60/1m",
            summary:
                "Attestation nonces, App Attest key registrations, development attestations and attested health submissions (`/health`) allowed per signed-in account, as `COUNT/DURATION`; per instance."
        ),
        ConfigKey(
            path: "rateLimits.confirmationAnswersPerAccount", kind: .string, defaultValue: "30/1m",
            summary: "Confirmation answers allowed per signed-in account, as `COUNT/DURATION`; per instance."),
        ConfigKey(
            path: "rateLimits.accountExportsPerAccount", kind: .string, defaultValue: "10/1h",
            summary:
                "Whole-account exports (`GET /api/v1/account/export`) allowed per signed-in account, as `COUNT/DURATION`; per instance."
        ),
        ConfigKey(
            path: "rateLimits.healthImportsPerAccount", kind: .string, defaultValue: "10/1h",
            summary:
                "Apple Health export uploads (`POST /api/v1/health/imports`) allowed per signed-in account, as `COUNT/DURATION`; per instance."
        ),
        ConfigKey(
            path: "rateLimits.healthImportsPerIp", kind: .string, defaultValue: "30/1h",
            summary: "Apple Health export uploads allowed per client address, as `COUNT/DURATION`; per instance."),
        ConfigKey(
            path: "rateLimits.emailCodesPerIp", kind: .string, defaultValue: "20/1h",
            summary: "Requests for email codes allowed per client address, as `COUNT/DURATION`; per instance."),
        ConfigKey(
            path: "socialSignIn.linkByVerifiedEmail", kind: .boolean, defaultValue: "false",
            summary:
                "Let a new Google, Apple or Facebook identity join the existing account whose email the provider verified, after `recovery.emailDelay` unless a device of the account cancels it. Off: that sign-in gets 409."
        ),
        ConfigKey(
            path: "socialSignIn.clockSkew", kind: .duration, defaultValue: "60s",
            summary: "Clock difference allowed when checking a provider token's exp and iat."),
        ConfigKey(
            path: "socialSignIn.google.clientIds", kind: .list, defaultValue: "",
            summary:
                "OAuth client ids of the iOS, Android and web apps: a Google ID token's aud must be one. Empty: Google is off."
        ),
        ConfigKey(
            path: "socialSignIn.google.keySetUrl", kind: .string,
            defaultValue: "https://www.googleapis.com/oauth2/v3/certs", summary: "Google's JWK Set."),
        ConfigKey(
            path: "socialSignIn.google.tokenInfoUrl", kind: .string,
            defaultValue: "https://oauth2.googleapis.com/tokeninfo",
            summary: "Google's token info, which checks a Google OAuth access token's client and expiry."),
        ConfigKey(
            path: "socialSignIn.google.userInfoUrl", kind: .string,
            defaultValue: "https://www.googleapis.com/oauth2/v3/userinfo",
            summary: "Google's user info, which gives an access token's profile."),
        ConfigKey(
            path: "socialSignIn.apple.audiences", kind: .list, defaultValue: "",
            summary: "Bundle ids and services ids: an Apple identity token's aud must be one. Empty: Apple is off."),
        ConfigKey(
            path: "socialSignIn.apple.keySetUrl", kind: .string, defaultValue: "https://appleid.apple.com/auth/keys",
            summary: "Apple's JWK Set."),
        ConfigKey(
            path: "socialSignIn.apple.teamId", kind: .string, defaultValue: "",
            summary:
                "Team id of the Sign in with Apple key. With keyId and privateKey it turns on Apple's REST API: apps' authorization codes are exchanged for refresh tokens, kept sealed under `secrets.keyEncryptionKey`, which are revoked when the account is deleted."
        ),
        ConfigKey(
            path: "socialSignIn.apple.keyId", kind: .string, defaultValue: "",
            summary: "Key id of the Sign in with Apple key."),
        ConfigKey(
            path: "socialSignIn.apple.privateKey", kind: .string, defaultValue: "",
            summary: "The Sign in with Apple key: the .p8 file's PEM text. A secret: prefer the environment."),
        ConfigKey(
            path: "socialSignIn.apple.tokenEncryptionKey", kind: .string, defaultValue: "",
            summary:
                "The key that sealed Apple refresh tokens before `secrets.keyEncryptionKey` did (32 bytes, base64):"
                + " set it while tokens it sealed remain, so they still open; `hale serve` and `hale keys rewrap` seal"
                + " them again under the key-encryption key. A secret."),
        ConfigKey(
            path: "socialSignIn.apple.tokenUrl", kind: .string, defaultValue: "https://appleid.apple.com/auth/token",
            summary: "Apple's token endpoint, for authorization codes."),
        ConfigKey(
            path: "socialSignIn.apple.revokeUrl", kind: .string, defaultValue: "https://appleid.apple.com/auth/revoke",
            summary: "Apple's revocation endpoint."),
        ConfigKey(
            path: "socialSignIn.facebook.appId", kind: .string, defaultValue: "",
            summary:
                "The Facebook app id: debug_token's app_id and a Limited Login token's aud. Empty: Facebook is off."),
        ConfigKey(
            path: "socialSignIn.facebook.appSecret", kind: .string, defaultValue: "",
            summary:
                "The Facebook app secret, for the app token that calls debug_token. A secret: prefer the environment."),
        ConfigKey(
            path: "socialSignIn.facebook.graphUrl", kind: .string, defaultValue: "https://graph.facebook.com",
            summary: "The Graph API base URL, for debug_token and /me."),
        ConfigKey(
            path: "socialSignIn.facebook.graphVersion", kind: .string, defaultValue: "v22.0",
            summary: "The Graph API version in its paths, such as `v22.0`; empty for unversioned paths."),
        ConfigKey(
            path: "socialSignIn.facebook.keySetUrl", kind: .string,
            defaultValue: "https://limited.facebook.com/.well-known/oauth/openid/jwks/",
            summary: "Facebook's JWK Set, for iOS Limited Login tokens."),
        ConfigKey(
            path: "firebase.projectId", kind: .string, defaultValue: "",
            summary:
                "The Firebase project of seed 000's apps: its users' ID tokens are accepted as the bearer on seed 000's routes (`/api/mobile/…`), each uid signing in to one Hale account, made on first use. Checked with `socialSignIn.clockSkew`. Empty: Firebase is off.",
            seeAlso: "docs/api/passkeys.md#firebase-apps-seed-000-as-documented"),
        ConfigKey(
            path: "firebase.serviceAccount", kind: .string, defaultValue: "",
            summary:
                "A service account of that project: the path of its JSON key file, or the JSON itself. With it, passkey sign-in (`authenticate/verify`) answers `token` as a Firebase custom token for `signInWithCustomToken`, Hale's own tokens beside it. A secret: prefer a file."
        ),
        ConfigKey(
            path: "firebase.certificatesUrl", kind: .string,
            defaultValue: "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com",
            summary: "Google's securetoken X.509 certificates, which sign Firebase ID tokens."),
        ConfigKey(
            path: "appAttest.environment", kind: .string, defaultValue: "production",
            summary: "`production` or `development`: the App Attest environment the apps in `apps.apple` attest in."),
        ConfigKey(
            path: "appAttest.rootCertificate", kind: .string, defaultValue: "",
            summary: "PEM of the root App Attest chains must lead to. Empty: Apple's App Attestation Root CA, bundled."),
        ConfigKey(
            path: "appAttest.developmentMode", kind: .boolean, defaultValue: "false",
            summary:
                "Development attestation: also accept App Attest chains to this installation's own development CA"
                + " (made once and kept in the database), under which `POST /health/development-attestation` certifies"
                + " the SDK's `SoftwareAppAttester`, so the attested flow runs without a phone. With `apps.apple` empty"
                + " the app is `HALEDEVAPP.dev.hale.attestation`; with it set, `appAttest.environment` must be"
                + " `development`. Anyone signed in can then attest: **never turn it on in production**; Hale logs a"
                + " warning at start-up while it is on, and turning it off refuses the keys it certified.",
            seeAlso: "docs/api/health.md"),
        ConfigKey(
            path: "playIntegrity.decryptionKey", kind: .string, defaultValue: "",
            summary:
                "Play Console's base64 AES-256 decryption key for integrity tokens. A secret. Empty: Android submissions are refused."
        ),
        ConfigKey(
            path: "playIntegrity.verificationKey", kind: .string, defaultValue: "",
            summary: "Play Console's base64 EC P-256 verification key (SubjectPublicKeyInfo) for integrity tokens."),
        ConfigKey(
            path: "playIntegrity.appRecognitionVerdicts", kind: .list, defaultValue: "PLAY_RECOGNIZED",
            summary: "The appRecognitionVerdict values accepted."),
        ConfigKey(
            path: "playIntegrity.deviceRecognitionVerdict", kind: .string, defaultValue: "MEETS_DEVICE_INTEGRITY",
            summary: "The deviceRecognitionVerdict a device must have."),
        ConfigKey(
            path: "playIntegrity.licensingVerdicts", kind: .list, defaultValue: "",
            summary: "The appLicensingVerdict values accepted, such as `LICENSED`. Empty: licensing is not checked."),
        ConfigKey(
            path: "playIntegrity.maximumAge", kind: .duration, defaultValue: "5m",
            summary: "How old an integrity token may be."),
        ConfigKey(
            path: "health.maxSteps", kind: .integer, defaultValue: "100000",
            summary:
                "Most steps a day accepts, on every route that takes health data; a sample may hold this much per day it lasts."
        ),
        ConfigKey(
            path: "health.maxDuration", kind: .integer, defaultValue: "86400",
            summary: "Most seconds of activity (active minutes, and workouts) a day accepts, on every route."),
        ConfigKey(
            path: "health.maxCalories", kind: .integer, defaultValue: "15000",
            summary: "Most kilocalories a day accepts, on every route."),
        ConfigKey(
            path: "health.maxDistance", kind: .integer, defaultValue: "250000",
            summary: "Most metres a day accepts, on every route."),
        ConfigKey(
            path: "health.maxSampleDuration", kind: .list, defaultValue: "*:1d,workouts:2d",
            summary:
                "The longest one sample may last, per type: `TYPE:DURATION`, `*` for every type not named; at most 7d."),
        ConfigKey(
            path: "health.sampleWindow.past", kind: .duration, defaultValue: "366d",
            summary:
                "How long before now a sample, or a day of totals, may start: a sync looks back at most 365 days."),
        ConfigKey(
            path: "health.sampleWindow.future", kind: .duration, defaultValue: "1d",
            summary:
                "How long after now a sample may start: a phone's clock may run ahead, and a day ahead is still today somewhere."
        ),
        ConfigKey(
            path: "health.sourcePriority.devices", kind: .list, defaultValue: "*:watch>phone>other",
            summary:
                "Which device's samples count where sources overlap, per type: `TYPE:watch>phone>other`, `*` for every type not named."
        ),
        ConfigKey(
            path: "health.sourcePriority.apps", kind: .list, defaultValue: "",
            summary: "Then which app's, per type: `TYPE:bundle.id>bundle.id`, `*` for every type not named."),
        ConfigKey(
            path: "health.requireAttestation", kind: .string, defaultValue: "uploads",
            summary:
                "`uploads`: seed 001's `POST /health` is attested, as its document says. `all`: every route that"
                + " writes health data (the daily sync, the sample sync) requires attestation of its body too.",
            seeAlso: "docs/api/health.md#every-write-attested-healthrequireattestation-all"),
        ConfigKey(
            path: "health.maxSamplesReadPerSync", kind: .integer, defaultValue: "100000",
            summary:
                "Most stored samples one sync, or one batch of an import, may read back to recompute the days it"
                + " changes; a batch over it is a 413 that changes nothing. Bounds the work, the write lock and the"
                + " memory (about 0.4 KB a sample) of one request; at least 10000."),
        ConfigKey(
            path: "health.imports.directory", kind: .string, defaultValue: "",
            summary:
                "Where uploaded Apple Health exports wait to be imported; empty for `imports` in `server.dataDirectory`."
                + " Made `0700`, its files `0600`; `hale serve` refuses a directory another user owns or may write."
                + " Every instance must see the same directory."),
        ConfigKey(
            path: "health.imports.worker", kind: .boolean, defaultValue: "true",
            summary:
                "Whether this instance imports uploaded exports (one at a time, looking every 5 seconds); `false`"
                + " leaves them to other instances."),
        ConfigKey(
            path: "health.imports.maxBytes", kind: .byteSize, defaultValue: "4GiB",
            summary: "The largest Apple Health export `POST /api/v1/health/imports` takes; a larger one is a 413."),
        ConfigKey(
            path: "health.imports.maxXMLBytes", kind: .byteSize, defaultValue: "32GiB",
            summary:
                "The most bytes of XML one import reads: what `export.zip` inflates to (Apple's largest real exports"
                + " are about 5 GB). Past it the import fails with `INVALID_EXPORT`."),
        ConfigKey(
            path: "health.imports.maxRecords", kind: .integer, defaultValue: "100000000",
            summary:
                "The most records one export may hold (a 5 GB export holds about 15 million). Past it the import fails"
                + " with `INVALID_EXPORT`."),
        ConfigKey(
            path: "health.imports.minFreeBytes", kind: .byteSize, defaultValue: "1GiB",
            summary:
                "The free space an upload must leave in `health.imports.directory`: an upload that would leave less is"
                + " refused, or stopped, with 507 and removed."),
        ConfigKey(
            path: "health.imports.timeSlice", kind: .duration, defaultValue: "30s",
            summary:
                "How long one import runs while another account's waits before it gives way and goes to the back of"
                + " the queue: one account's large export cannot hold the worker from others."),
        ConfigKey(
            path: "health.retentionDays", kind: .integer, defaultValue: "30",
            summary: "Days synced samples, their daily totals and sync logs are kept; 0 keeps them."),
        ConfigKey(
            path: "accountLimits.passkeys", kind: .integer, defaultValue: "20",
            summary: "Passkeys one account may have; one more is a 409 `LIMIT_REACHED` until one is deleted."),
        ConfigKey(
            path: "accountLimits.devices", kind: .integer, defaultValue: "20",
            summary: "Devices one account may have registered, deactivated ones included; delete one to add another."),
        ConfigKey(
            path: "accountLimits.fitnessChallenges", kind: .integer, defaultValue: "100",
            summary: "Fitness challenges one account may have created that have not ended."),
        ConfigKey(
            path: "apps.apple", kind: .list, defaultValue: "",
            summary: "iOS apps as `TEAMID.bundle.id`, served in `/.well-known/apple-app-site-association`."),
        ConfigKey(
            path: "apps.android", kind: .list, defaultValue: "",
            summary:
                "Android apps as `package.name=SHA256_FINGERPRINT` (the signing certificate's, colon-separated hex), served in `/.well-known/assetlinks.json`."
        ),
        ConfigKey(
            path: "push.apns.teamId", kind: .string, defaultValue: "",
            summary: "Team id of the APNs key. With keyId, privateKey and bundleId it turns APNs on; empty: off."),
        ConfigKey(path: "push.apns.keyId", kind: .string, defaultValue: "", summary: "Key id of the APNs key."),
        ConfigKey(
            path: "push.apns.privateKey", kind: .string, defaultValue: "",
            summary: "The APNs key: the .p8 file's PEM text. A secret: prefer the environment."),
        ConfigKey(
            path: "push.apns.bundleId", kind: .string, defaultValue: "",
            summary: "The iOS app's bundle id, sent as `apns-topic`."),
        ConfigKey(
            path: "push.apns.environment", kind: .string, defaultValue: "production",
            summary: "`production` (api.push.apple.com) or `sandbox` (api.sandbox.push.apple.com)."),
        ConfigKey(
            path: "push.apns.url", kind: .string, defaultValue: "",
            summary: "The APNs base URL, https; empty: the environment's host."),
        ConfigKey(
            path: "push.apns.rootCertificate", kind: .string, defaultValue: "",
            summary: "PEM of the root APNs's certificate must lead to. Empty: the system's roots."),
        ConfigKey(
            path: "push.fcm.serviceAccount", kind: .string, defaultValue: "",
            summary: "The Firebase service account's JSON key file, as text. A secret. Empty: FCM is off."),
        ConfigKey(
            path: "push.fcm.url", kind: .string, defaultValue: "https://fcm.googleapis.com",
            summary: "The FCM HTTP v1 base URL."),
        ConfigKey(
            path: "push.fcm.tokenUrl", kind: .string, defaultValue: "",
            summary: "The OAuth 2.0 token endpoint for FCM access tokens. Empty: the service account's `token_uri`."),
        ConfigKey(
            path: "push.maxAttempts", kind: .integer, defaultValue: "8",
            summary: "Delivery attempts after which a push message is given up (`dead`)."),
        ConfigKey(
            path: "push.retryDelay", kind: .duration, defaultValue: "30s",
            summary: "Delay before the first retry of a push message; each later one doubles, with jitter."),
        ConfigKey(
            path: "push.maxRetryDelay", kind: .duration, defaultValue: "1h",
            summary: "Longest delay between two delivery attempts."),
        ConfigKey(
            path: "push.deliveryInterval", kind: .duration, defaultValue: "5s",
            summary: "How often each instance looks for push messages due."),
        ConfigKey(
            path: "email.smtp.host", kind: .string, defaultValue: "",
            summary:
                "The SMTP server mail is submitted to. Empty: each mail is written as a `.eml` file in `email.directory` instead."
        ),
        ConfigKey(
            path: "email.smtp.port", kind: .integer, defaultValue: "587",
            summary: "The SMTP server's port: 587 for STARTTLS, 465 for implicit TLS."),
        ConfigKey(
            path: "email.smtp.security", kind: .string, defaultValue: "starttls",
            summary:
                "`starttls` (the server must offer STARTTLS; nothing is sent before TLS is up) or `tls` (TLS from the first byte). The server's certificate is always verified."
        ),
        ConfigKey(
            path: "email.smtp.username", kind: .string, defaultValue: "",
            summary: "The SMTP user, authenticated with AUTH PLAIN or LOGIN after TLS is up. Empty: no authentication."),
        ConfigKey(
            path: "email.smtp.password", kind: .string, defaultValue: "",
            summary: "The SMTP user's password. A secret: prefer `HALE_EMAIL_SMTP_PASSWORD_FILE`."),
        ConfigKey(
            path: "email.smtp.caFile", kind: .string, defaultValue: "",
            summary:
                "A PEM file of the certificate authorities the SMTP server's certificate must lead to. Empty: the system's roots."
        ),
        ConfigKey(
            path: "email.from", kind: .string, defaultValue: "hale@localhost",
            summary: "The sender address of every mail."),
        ConfigKey(
            path: "email.productName", kind: .string, defaultValue: "Hale",
            summary: "The product named in mails and as the sender's display name."),
        ConfigKey(
            path: "email.directory", kind: .string, defaultValue: "",
            summary:
                "Where mails are written as files when `email.smtp.host` is empty; empty for `mail` in `server.dataDirectory`."
        ),
        ConfigKey(
            path: "email.codesPerAddress", kind: .integer, defaultValue: "5",
            summary: "Codes (and notices instead of codes) one address may be sent in an hour, whoever asks."),
        ConfigKey(
            path: "email.codesPerAccount", kind: .integer, defaultValue: "10",
            summary: "Email codes one account may be sent in an hour."),
        ConfigKey(
            path: "email.signIn", kind: .boolean, defaultValue: "true",
            summary:
                "Whether a person may sign in with a code mailed to a verified address (`POST /api/v1/auth/email/…`). Such a session never counts as a fresh sign-in."
        ),
        ConfigKey(
            path: "recovery.emailDelay", kind: .duration, defaultValue: "24h",
            summary:
                "How long a recovery by email (or by `hale accounts recover`) waits before it opens, while the account's devices and addresses are told and may cancel it; `0s` opens at once."
        ),
        ConfigKey(
            path: "accountLimits.emailAddresses", kind: .integer, defaultValue: "5",
            summary: "Verified email addresses one account may have."),
        ConfigKey(
            path: "confirmations.webhookUrl", kind: .string, defaultValue: "",
            summary:
                "The app backend's URL that gets each confirmation answer as an HMAC-signed POST. Empty: no webhook."),
        ConfigKey(
            path: "confirmations.webhookSecret", kind: .string, defaultValue: "",
            summary: "The webhook's HMAC-SHA256 key, at least 32 characters; required with webhookUrl. A secret."),
        ConfigKey(
            path: "webhooks.deliveryInterval", kind: .duration, defaultValue: "1s",
            summary:
                "How often each instance looks for webhook deliveries that are due. Endpoints are added with"
                + " `hale webhooks add` or the admin API.", seeAlso: "docs/api/webhooks.md"),
        ConfigKey(
            path: "webhooks.retrySchedule", kind: .list, defaultValue: "5s,5m,30m,2h,5h,10h,14h,20h,20h",
            summary:
                "The waits before each retry of a delivery the endpoint did not answer with 2xx; after the last the"
                + " delivery fails. The default tries ten times over 3 days."),
        ConfigKey(
            path: "webhooks.timeout", kind: .duration, defaultValue: "15s",
            summary: "How long a delivery waits for the endpoint's answer before it counts as failed."),
        ConfigKey(
            path: "webhooks.secretOverlap", kind: .duration, defaultValue: "24h",
            summary:
                "After `hale webhooks rotate-secret`, how long the old secret still signs beside the new one, so"
                + " the receiver can switch without losing an event."),
        ConfigKey(
            path: "webhooks.retention", kind: .duration, defaultValue: "30d",
            summary: "How long events and their delivery records are kept, to be listed and replayed."),
        ConfigKey(
            path: "tracing.otlpEndpoint", kind: .string, defaultValue: "",
            summary:
                "Where `hale serve` sends traces by OTLP/HTTP (protobuf), such as `http://127.0.0.1:4318/v1/traces`:"
                + " a span per request named for its route, with its database transactions, provider calls, push and"
                + " webhook deliveries as children; never a secret or a health value. Empty: no tracing.",
            seeAlso: "docs/operations.md#traces"),
        ConfigKey(
            path: "tracing.serviceName", kind: .string, defaultValue: "hale",
            summary: "The `service.name` of the traces."),
        ConfigKey(
            path: "tracing.sampleRatio", kind: .string, defaultValue: "1",
            summary:
                "The share of traces kept, 0 to 1, unless the client's `traceparent` decided: a request continues"
                + " its caller's sampling."),
        ConfigKey(
            path: "supabase.publishableKeys", kind: .list, defaultValue: "",
            summary:
                "Keys an app sends as `apikey` to the Supabase-compatible surface at `/rest/v1` (seed 004's supabase-js"
                + " client); `hale supabase key` makes one. Several allow a rotation. Empty: `/rest/v1` refuses every"
                + " request."),
        ConfigKey(
            path: "secrets.keyEncryptionKey", kind: .string, defaultValue: "",
            summary:
                "The key that seals the secrets Hale keeps in the database (signing keys, Apple refresh tokens):"
                + " 32 random bytes in base64 (`openssl rand -base64 32`), best from a file"
                + " (`HALE_SECRETS_KEY_ENCRYPTION_KEY_FILE`). Empty: with SQLite, `hale.kek` in `server.dataDirectory`,"
                + " made on first use; with PostgreSQL, `hale serve` refuses to start. A secret."),
        ConfigKey(
            path: "secrets.previousKeyEncryptionKeys", kind: .list, defaultValue: "",
            summary:
                "Keys that sealed secrets before the current one: values they sealed still open, until"
                + " `hale keys rewrap` has sealed them all again under `secrets.keyEncryptionKey`. Secrets."),
        ConfigKey(
            path: "metrics.bearerToken", kind: .string, defaultValue: "",
            summary:
                "When set (32 or more characters, e.g. `openssl rand -hex 32`), `/metrics` answers only requests with `Authorization: Bearer` and this token. A secret. Empty: `/metrics` is open; restrict it at the proxy."
        ),
        ConfigKey(
            path: "logging.level", kind: .string, defaultValue: "info",
            summary:
                "`trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`. Below `info` only Hale's own lines are written, never the libraries' (which carry SQL values and headers); no level logs a token, key or health value."
        ),
    ]

    /// The key with this path, if Hale knows it.
    public static func named(_ path: String) -> ConfigKey? {
        all.first { $0.path == path }
    }
}
