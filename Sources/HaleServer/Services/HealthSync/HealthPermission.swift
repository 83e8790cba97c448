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
