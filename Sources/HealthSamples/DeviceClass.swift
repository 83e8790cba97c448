/// The kind of device that recorded a sample, as far as source priority cares.
public enum DeviceClass: String, CaseIterable, Sendable, Codable {
    /// A watch: worn all day, its motion data is the most accurate.
    case watch
    /// A phone: counts only while carried.
    case phone
    /// Anything else, or unknown.
    case other
}
