import Foundation

/// Stores health connections. Every call is scoped by the account.
protocol HealthConnectionRepository: Sendable {
    /// Connects, or reconnects, the account to `provider` with `permissions`, each a name `HealthSampleType` parses,
    /// kept as sent; returns the connection.
    func connect(_ account: AccountID, to provider: HealthProvider, permissions: [String], at date: Date)
        async throws -> HealthConnection
    /// Disconnects an active connection; nil when there is none.
    func disconnect(_ account: AccountID, from provider: HealthProvider, at date: Date) async throws
        -> HealthConnection?
    /// The account's connections, active or not, by provider.
    func connections(of account: AccountID) async throws -> [HealthConnection]
}
