extension HealthSampleType {
    /// Every kind's name, for messages.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// The kinds a request names (raw values, seed 004's `activeMinutes`, HealthKit and Health Connect names), each
    /// once, in order of first mention; a 400 for none or an unknown one.
    static func list(_ names: [String]?) throws -> [HealthSampleType] {
        try namedList(names).map(\.type)
    }

    /// `list(_:)` with each kind's name as the request spelled it first, to answer in the client's own words.
    static func namedList(_ names: [String]?) throws -> [(name: String, type: HealthSampleType)] {
        guard let names, !names.isEmpty else {
            throw HaleError.invalidRequest("permissions must be a non-empty list of: \(Self.names)")
        }
        var permissions: [(name: String, type: HealthSampleType)] = []
        for name in names {
            guard let permission = HealthSampleType(parsing: name) else {
                throw HaleError.invalidRequest("Unknown permission; permissions are: \(Self.names)")
            }
            if !permissions.contains(where: { $0.type == permission }) { permissions.append((name, permission)) }
        }
        return permissions
    }
}
