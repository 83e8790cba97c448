import Foundation

/// Stores health-data consent. Every call is scoped by the account.
protocol HealthConsentRepository: Sendable {
    /// Grants each permission from `platform` at `date`: a new grant, or a renewed one that clears a revocation.
    /// A grant already in force keeps its original time.
    func grant(_ permissions: [HealthSampleType], from platform: HealthPlatform, to account: AccountID, at date: Date)
        async throws
    /// Revokes the grants in force that match: every platform when `platform` is nil, every permission when
    /// `permissions` is nil. Returns the grants it revoked.
    func revoke(
        _ permissions: [HealthSampleType]?, from platform: HealthPlatform?, of account: AccountID, at date: Date
    ) async throws -> [ConsentGrant]
    /// The account's grants, revoked ones included, ordered by platform and permission.
    func grants(of account: AccountID) async throws -> [ConsentGrant]
}
