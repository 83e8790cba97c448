import Foundation

/// Connections to health-data providers (seed 004). Connecting is the person granting the provider's permissions,
/// so it grants consent to them too; disconnecting stops syncs and keeps consent and data until consent is revoked.
public struct HealthConnections: Sendable {
    let repository: any HealthConnectionRepository
    let consents: HealthConsents
    let clock: HaleClock

    /// Connects, or reconnects with new permissions, to `provider`: `permissions` are the kinds granted, each with
    /// the name the request spelled it with, which the connection keeps.
    public func connect(
        provider: HealthProvider, permissions: [(name: String, type: HealthSampleType)], account: AccountID
    ) async throws -> HealthConnection {
        try await consents.grant(permissions.map(\.type), from: provider.platform, to: account)
        return try await repository.connect(
            account, to: provider, permissions: permissions.map(\.name), at: clock.now())
    }

    /// Refuses a sync through a provider the account disconnected (seed 004: "no more syncs") until it connects
    /// again. A provider never connected syncs as before: connecting is seed 004's step, not every client's. No
    /// provider (a name the surface could not read) passes, for the surface to refuse the name with its own message.
    public func requireNotDisconnected(_ provider: HealthProvider?, account: AccountID) async throws {
        guard let provider,
            let connection = try await repository.connections(of: account).first(where: { $0.provider == provider }),
            !connection.isActive
        else { return }
        throw HaleError(
            .providerDisconnected, .conflict,
            message: "\(provider.rawValue) was disconnected: connect it again to sync its health data.")
    }

    /// Disconnects the account's active connection to `provider`; a 404 when there is none.
    public func disconnect(provider: HealthProvider, account: AccountID) async throws -> HealthConnection {
        guard let connection = try await repository.disconnect(account, from: provider, at: clock.now()) else {
            throw HaleError(.resourceNotFound, .notFound, message: "No active \(provider.rawValue) connection.")
        }
        return connection
    }

    /// The account's connections, active or not, by provider.
    public func list(of account: AccountID) async throws -> [HealthConnection] {
        try await repository.connections(of: account)
    }
}

extension HaleError.Code {
    /// The account disconnected the provider a sync names; connecting it again lets syncs through (409).
    public static let providerDisconnected = Self(rawValue: "PROVIDER_DISCONNECTED")
}
