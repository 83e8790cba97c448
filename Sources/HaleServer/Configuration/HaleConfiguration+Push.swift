import Foundation
import SocialTokens

extension HaleConfiguration {
    /// Push delivery through APNs and FCM. Either gateway may be off; with both off, messages are still written to
    /// the outbox and marked `skipped`.
    public struct Push: Sendable {
        /// APNs, when its key is configured.
        public var apns: APNs?
        /// FCM, when a service account is configured.
        public var fcm: FCM?
        /// Delivery attempts after which a message is dead.
        public var maxAttempts: Int
        /// The delay before the first retry; each later one doubles, up to `maxRetryDelay`.
        public var retryDelay: Duration
        /// The longest delay between two attempts.
        public var maxRetryDelay: Duration
        /// How often each instance looks for messages due.
        public var deliveryInterval: Duration
    }

    /// APNs with token-based authentication.
    public struct APNs: Sendable {
        /// The team id: the provider token's `iss`.
        public var teamID: String
        /// The key id: the provider token's `kid`.
        public var keyID: String
        /// The .p8 file's PEM.
        public var privateKeyPEM: String
        /// The app's bundle id: `apns-topic`.
        public var topic: String
        /// `https://host[:port]`, without a path.
        public var baseURL: String
        /// PEM of the root the server's certificate must lead to; `nil` for the system's roots.
        public var rootCertificatePEM: String?
    }

    /// FCM HTTP v1 with a service account.
    public struct FCM: Sendable {
        /// The service account.
        public var serviceAccount: GoogleServiceAccount
        /// The Firebase project: the `{project}` in `messages:send`, the key file's `project_id`.
        public var projectID: String
        /// `https://host[:port]`, without a path.
        public var baseURL: String
        /// The OAuth 2.0 token endpoint.
        public var tokenURL: String
    }

    static let apnsHosts = [
        "production": "https://api.push.apple.com", "sandbox": "https://api.sandbox.push.apple.com",
    ]

    static func push(_ values: ConfigValues) throws -> Push {
        let push = Push(
            apns: try apns(values), fcm: try fcm(values), maxAttempts: try values.integer("push.maxAttempts"),
            retryDelay: try values.duration("push.retryDelay"),
            maxRetryDelay: try values.duration("push.maxRetryDelay"),
            deliveryInterval: try values.duration("push.deliveryInterval"))
        guard (1...100).contains(push.maxAttempts) else { throw ConfigError("push.maxAttempts must be 1 to 100") }
        guard push.retryDelay <= push.maxRetryDelay else {
            throw ConfigError("push.retryDelay must be at most push.maxRetryDelay")
        }
        return push
    }

    /// All four APNs key settings or none.
    private static func apns(_ values: ConfigValues) throws -> APNs? {
        let paths = ["teamId", "keyId", "privateKey", "bundleId"].map { "push.apns.\($0)" }
        let given = try paths.map { try values.string($0) }
        if given.allSatisfy(\.isEmpty) { return nil }
        if let missing = zip(paths, given).first(where: { $0.1.isEmpty }) {
            throw ConfigError("\(missing.0) is required with the other push.apns key settings")
        }
        let environment = try values.string("push.apns.environment")
        guard let host = apnsHosts[environment] else {
            throw ConfigError("push.apns.environment must be production or sandbox, not \"\(environment)\"")
        }
        let url = try values.string("push.apns.url")
        let baseURL = url.isEmpty ? host : url
        guard URL(string: baseURL)?.scheme == "https", URL(string: baseURL)?.host != nil else {
            throw ConfigError("push.apns.url must be an https URL, not \"\(baseURL)\"")
        }
        let root = try values.string("push.apns.rootCertificate")
        return APNs(
            teamID: given[0], keyID: given[1], privateKeyPEM: given[2], topic: given[3], baseURL: baseURL,
            rootCertificatePEM: root.isEmpty ? nil : root)
    }

    private static func fcm(_ values: ConfigValues) throws -> FCM? {
        let json = try values.string("push.fcm.serviceAccount")
        guard !json.isEmpty else { return nil }
        let account = try serviceAccount(json: json, setting: "push.fcm.serviceAccount")
        guard let projectID = account.projectID, !projectID.isEmpty else {
            throw ConfigError("push.fcm.serviceAccount must be a service account JSON key: project_id is missing")
        }
        let tokenURL = try values.string("push.fcm.tokenUrl")
        let fcm = FCM(
            serviceAccount: account, projectID: projectID, baseURL: try values.string("push.fcm.url"),
            tokenURL: tokenURL.isEmpty ? account.tokenURI ?? "https://oauth2.googleapis.com/token" : tokenURL)
        for (path, text) in [("push.fcm.url", fcm.baseURL), ("push.fcm.tokenUrl", fcm.tokenURL)] {
            guard let url = URL(string: text), let host = url.host, SocialSignIn.isSecure(url, host: host) else {
                throw ConfigError("\(path) must be an https URL (http only on loopback), not \"\(text)\"")
            }
        }
        return fcm
    }

    /// A service account key file's JSON text, or a `ConfigError` naming `setting` and what is wrong, never the key.
    static func serviceAccount(json: String, setting: String) throws -> GoogleServiceAccount {
        do {
            return try GoogleServiceAccount(json: Array(json.utf8))
        } catch {
            throw ConfigError("\(setting) must be a service account JSON key: \(error.reason)")
        }
    }
}
