import Vapor

/// `POST /api/v1/health/connections`: seed 004's `connect(["steps", "activeMinutes", "calories"])`.
struct ConnectRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["provider", "permissions"]
    let provider: String?
    let permissions: [String]?
}

extension HealthProvider {
    /// The provider a request names, by its raw value or an alias (`HealthProvider(parsing:)`); any other name, or
    /// none, is an `InvalidInput` naming every provider.
    static func named(_ name: String?) throws(InvalidInput) -> HealthProvider {
        guard let provider = name.flatMap(HealthProvider.init(parsing:)) else {
            throw InvalidInput("provider", .oneOf(allCases.map(\.rawValue)))
        }
        return provider
    }
}

/// A connection as the API answers it.
struct HealthConnectionResponse: Content {
    let id: String
    let provider: String
    let permissionsGranted: [String]
    let connectedAt: String
    @Nullable var lastSyncAt: String?
    let isActive: Bool
    @Nullable var disconnectedAt: String?

    init(_ connection: HealthConnection) {
        id = connection.id.uuidString.lowercased()
        provider = connection.provider.rawValue
        permissionsGranted = connection.permissionNames
        connectedAt = ISO8601.string(connection.connectedAt)
        lastSyncAt = connection.lastSyncAt.map(ISO8601.string)
        isActive = connection.isActive
        disconnectedAt = connection.disconnectedAt.map(ISO8601.string)
    }
}

/// One connection.
struct ConnectionResponse: Content {
    var success = true
    let connection: HealthConnectionResponse
}

/// The account's connections.
struct ConnectionsResponse: Content {
    var success = true
    let connections: [HealthConnectionResponse]
}
