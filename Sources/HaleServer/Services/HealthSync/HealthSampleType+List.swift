extension HealthSampleType {
    /// Every kind's name, for messages.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// The kinds a request names (raw values, seed 004's `activeMinutes`, HealthKit and Health Connect names), each
    /// once, in order of first mention; a 400 for none or an unknown one.
    static func list(_ names: [String]?) throws -> [HealthSampleType] {
        guard let names, !names.isEmpty else {
            throw HaleError.invalidRequest("permissions must be a non-empty list of: \(Self.names)")
        }
        var permissions: [HealthSampleType] = []
        for name in names {
            guard let permission = HealthSampleType(parsing: name) else {
                throw HaleError.invalidRequest("Unknown permission; permissions are: \(Self.names)")
            }
            if !permissions.contains(permission) { permissions.append(permission) }
        }
        return permissions
    }
}
