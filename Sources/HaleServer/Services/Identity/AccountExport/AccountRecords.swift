import Foundation

/// Everything Hale holds about an account beside its health data and its audit events, which are read page by page.
///
/// Each record names the columns it carries, and the repository reads only those: a column added to a table later
/// (a secret, a hash, a token) reaches an export only when someone adds it here on purpose. What is left out on
/// purpose: session secrets and refresh-token hashes, personal access tokens' hashes, social providers' refresh
/// tokens, push tokens (a device says only which gateways it has one for), device fingerprints' hashes, App Attest
/// receipts, confirmation signatures, and the single-use challenges and push messages in flight.
struct AccountRecords: Sendable {
    /// The account's own row.
    struct Profile: Codable, Sendable {
        let id: RecordID
        let email: String?
        let unverifiedEmail: String?
        let role: String
        let timeZone: String?
        let createdAt: Date
        let updatedAt: Date
    }

    /// A passkey's metadata and public key; the private key never leaves the authenticator.
    struct Passkey: Codable, Sendable {
        let id: RecordID
        let name: String
        let credentialId: String
        let publicKey: String
        let signCount: Int64
        let aaguid: String
        let attestationFormat: String
        let transports: CommaSeparated
        let backupEligible: Bool
        let backupState: Bool
        let platform: String?
        let osVersion: String?
        let deviceName: String?
        let deviceId: RecordID?
        let createdAt: Date
        let lastUsedAt: Date?
        let suspectedCloneAt: Date?
        let suspectedCloneReason: String?
    }

    /// A device: which gateways it holds a push token for, never the token.
    struct Device: Codable, Sendable {
        let id: RecordID
        let name: String
        let deviceType: String
        let hasFcmToken: Bool
        let hasApnsToken: Bool
        let pushTokenUpdatedAt: Date?
        let lastIpRange: String?
        let createdAt: Date
        let lastUsedAt: Date?
        let deactivatedAt: Date?
    }

    /// A device key: its public key and how it signs.
    struct DeviceKey: Codable, Sendable {
        let id: RecordID
        let deviceId: RecordID
        let publicKey: String
        let thumbprint: String
        let keyType: String
        let declaredAlgorithm: String
        let signatureConvention: String
        let createdAt: Date
        let lastUsedAt: Date?
        let revokedAt: Date?
    }

    /// An App Attest key's metadata; neither its public key nor Apple's receipt.
    struct AppAttestKey: Codable, Sendable {
        let id: RecordID
        let deviceId: RecordID?
        let keyId: String
        let appId: String
        let environment: String
        let counter: Int64
        let fromDevelopmentAuthority: Bool
        let createdAt: Date
        let lastUsedAt: Date?
    }

    /// A session's metadata; never its secret or its refresh tokens.
    struct Session: Codable, Sendable {
        let id: RecordID
        let deviceId: RecordID?
        let signInMethod: String
        let rememberMe: Bool
        let createdAt: Date
        let lastUsedAt: Date
        let expiresAt: Date
        let revokedAt: Date?
        let revokeReason: String?
    }

    /// A personal access token's metadata; never the token or its hash.
    struct PersonalAccessToken: Codable, Sendable {
        let id: Int64
        let name: String
        let signInMethod: String?
        let createdAt: Date
        let lastUsedAt: Date?
        let expiresAt: Date?
        let revokedAt: Date?
    }

    /// A social identity: provider and subject; never the provider's tokens.
    struct SocialIdentity: Codable, Sendable {
        let id: RecordID
        let provider: String
        let subject: String
        let email: String?
        let emailVerified: Bool
        let privateRelayEmail: Bool
        let relayEmailDisabled: Bool
        let clientId: String?
        let createdAt: Date
        let lastSignInAt: Date
    }

    /// Seed 003's cleaner profile, collected at sign-up.
    struct CleanerProfile: Codable, Sendable {
        let phone: String
        let availableDays: String
        let timeSlots: String
        let maxHoursPerWeek: Int64
        let acceptsUrgentOffers: Bool
        let yearsOfExperience: Int64
        let hasCleaningSupplies: Bool
        let comfortableWithPets: Bool
        let serviceRadiusKm: Int64
        let termsAgreedAt: Date
    }

    /// A service the account chose at sign-up (`previous` or `preferred`).
    struct Service: Codable, Sendable {
        let relation: String
        let serviceId: Int64
    }

    /// A social sign-in's push registration: the platform and when, never the token.
    struct PushRegistration: Codable, Sendable {
        let platform: String
        let updatedAt: Date
    }

    /// A verified email address.
    struct EmailAddress: Codable, Sendable {
        let address: String
        let verifiedBy: String
        let verifiedAt: Date
    }

    /// A fitness challenge the account created.
    struct CreatedChallenge: Codable, Sendable {
        let id: RecordID
        let name: String
        let type: String
        let goal: Double
        let startDay: Int
        let endDay: Int
        let visibility: String
        let includesUserEntered: Bool
        /// A verified challenge's kinds of device, comma-separated; nil for another.
        let verifiedSources: String?
        let createdAt: Date
    }

    /// The account's membership of a fitness challenge, with its progress.
    struct Membership: Codable, Sendable {
        let challengeId: RecordID
        let name: String
        let type: String
        let goal: Double
        let startDay: Int
        let endDay: Int
        let joinedAt: Date
        let leftAt: Date?
        let progress: Double
        let verified: Bool
        let excludedSamples: Int
        let updatedAt: Date
    }

    /// A confirmation request to the account, with its answer; not the answer's signature.
    struct Confirmation: Codable, Sendable {
        let id: RecordID
        let actionType: String
        let actionPayload: String
        let createdAt: Date
        let expiresAt: Date
        let decision: String?
        let answeredAt: Date?
        let answeredByDeviceId: RecordID?
    }

    let profile: Profile
    /// The passkeys' WebAuthn user handle, when the account has registered one.
    let passkeyUserHandle: String?
    let passkeys: [Passkey]
    let devices: [Device]
    let deviceKeys: [DeviceKey]
    let appAttestKeys: [AppAttestKey]
    let sessions: [Session]
    let personalAccessTokens: [PersonalAccessToken]
    let socialIdentities: [SocialIdentity]
    let cleanerProfile: CleanerProfile?
    let services: [Service]
    let pushRegistrations: [PushRegistration]
    let emailAddresses: [EmailAddress]
    let createdChallenges: [CreatedChallenge]
    let memberships: [Membership]
    let confirmations: [Confirmation]
}

/// A UUID read from a record, written in JSON in the lowercase canonical form, as Hale writes identifiers.
struct RecordID: Codable, Sendable {
    let rawValue: UUID

    init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(UUID.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue.uuidString.lowercased())
    }
}

/// Text stored comma-separated, such as a passkey's transports, written in JSON as an array.
struct CommaSeparated: Codable, Sendable {
    let items: [String]

    init(from decoder: any Decoder) throws {
        items = try decoder.singleValueContainer().decode(String.self).split(separator: ",").map(String.init)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(items)
    }
}
