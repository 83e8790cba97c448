import Foundation

/// What makes two uploads the same sample: the account, the platform, and the platform's id for the sample
/// (a HealthKit UUID, a Health Connect record id). A re-sync with the same identity updates the stored sample.
public struct SampleIdentity: Hashable, Sendable, Codable {
    /// The account the sample belongs to.
    public let accountID: UUID
    /// The platform the sample was read from.
    public let provider: HealthProvider
    /// The platform's id for the sample. An id that is a UUID is kept in lowercase canonical form, so a client that
    /// changes letter case (HealthKit writes uppercase) does not create a duplicate; any other id is kept as sent.
    public let platformID: String

    /// The identity of a sample, or `nil` when the platform id is empty. For a client that sends no id, pass
    /// `SampleFingerprint.seedHash(…)` as the platform id.
    public init?(accountID: UUID, provider: HealthProvider, platformID: String) {
        guard !platformID.isEmpty else { return nil }
        self.accountID = accountID
        self.provider = provider
        self.platformID = UUID(uuidString: platformID).map { $0.uuidString.lowercased() } ?? platformID
    }
}
