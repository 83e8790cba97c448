/// A kind of health data that consent is given for.
public enum HealthPermission: String, Sendable, Codable, CaseIterable, Comparable {
    /// Step counts.
    case steps
    /// Walking and running distance.
    case distance
    /// Active energy burned.
    case calories
    /// Exercise minutes.
    case activeMinutes = "active_minutes"
    /// Workouts.
    case workouts

    /// Orders permissions by name, for stable listings.
    public static func < (lhs: HealthPermission, rhs: HealthPermission) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension HealthPermission {
    /// Every permission's name, for messages.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// The permission a client names: the raw value, or seed 004's camelCase (`activeMinutes`).
    init?(named name: String) {
        self.init(rawValue: name == "activeMinutes" ? Self.activeMinutes.rawValue : name)
    }

    /// The permissions a request names, each once, in order of first mention; a 400 for none or an unknown one.
    static func list(_ names: [String]?) throws -> [HealthPermission] {
        guard let names, !names.isEmpty else {
            throw HaleError.invalidRequest("permissions must be a non-empty list of: \(Self.names)")
        }
        var permissions: [HealthPermission] = []
        for name in names {
            guard let permission = HealthPermission(named: name) else {
                throw HaleError.invalidRequest("Unknown permission; permissions are: \(Self.names)")
            }
            if !permissions.contains(permission) { permissions.append(permission) }
        }
        return permissions
    }
}
