extension HealthSampleType {
    /// Every kind's name, for messages.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// The kinds a request names (raw values, seed 004's `activeMinutes`, HealthKit and Health Connect names), each
    /// once, in order of first mention; an `InvalidInput` of `permissions` for none or an unknown one. Surfaces read
    /// their requests' permissions with it.
    static func list(_ names: [String]?) throws(InvalidInput) -> [HealthSampleType] {
        try namedList(names).map(\.type)
    }

    /// `list(_:)` with each kind's name as the request spelled it first, to answer in the client's own words.
    static func namedList(_ names: [String]?) throws(InvalidInput) -> [(name: String, type: HealthSampleType)] {
        guard let names, !names.isEmpty else {
            throw InvalidInput("permissions", .form("a non-empty list of: \(Self.names)"))
        }
        var permissions: [(name: String, type: HealthSampleType)] = []
        for name in names {
            guard let permission = HealthSampleType(parsing: name) else {
                throw InvalidInput("permissions", .described("Unknown permission; permissions are: \(Self.names)"))
            }
            if !permissions.contains(where: { $0.type == permission }) { permissions.append((name, permission)) }
        }
        return permissions
    }
}
