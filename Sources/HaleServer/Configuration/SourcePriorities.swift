/// The source priority each sample type's daily totals use, from `health.sourcePriority.devices` and
/// `health.sourcePriority.apps`: entries `TYPE:FIRST>SECOND>…`, where `TYPE` is a sample type or `*` for every type
/// not named. Devices are `watch`, `phone` and `other`; apps are bundle ids.
public struct SourcePriorities: Sendable, Equatable {
    /// The priority of types without their own entry.
    public let fallback: SourcePriority
    /// Types with their own entry.
    public let byType: [HealthSampleType: SourcePriority]

    /// The priority `type`'s totals use.
    public func priority(for type: String) -> SourcePriority {
        HealthSampleType(rawValue: type).flatMap { byType[$0] } ?? fallback
    }

    /// Reads the two lists of entries.
    public init(devices: [String], apps: [String]) throws {
        let deviceOrders = try Self.entries(devices, key: "health.sourcePriority.devices") { name in
            guard let device = DeviceClass(rawValue: name) else {
                throw ConfigError("health.sourcePriority.devices: \(name) is not watch, phone or other")
            }
            return device
        }
        let appOrders = try Self.entries(apps, key: "health.sourcePriority.apps") { $0 }
        func priority(_ type: HealthSampleType?) -> SourcePriority {
            let devices = deviceOrders[type] ?? deviceOrders[nil] ?? SourcePriority.default.deviceOrder
            return SourcePriority(deviceOrder: devices, bundleOrder: appOrders[type] ?? appOrders[nil] ?? [])
        }
        fallback = priority(nil)
        var byType: [HealthSampleType: SourcePriority] = [:]
        for type in Set(deviceOrders.keys.compactMap { $0 } + appOrders.keys.compactMap { $0 }) {
            byType[type] = priority(type)
        }
        self.byType = byType
    }

    /// `TYPE:A>B>C` entries by type (`nil` for `*`).
    private static func entries<T>(_ entries: [String], key: String, _ item: (String) throws -> T) throws
        -> [HealthSampleType?: [T]]
    {
        var orders: [HealthSampleType?: [T]] = [:]
        for entry in entries {
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ConfigError("\(key) entries are TYPE:FIRST>SECOND, not \"\(entry)\"")
            }
            let type = parts[0] == "*" ? nil : HealthSampleType(rawValue: parts[0])
            guard parts[0] == "*" || type != nil else {
                throw ConfigError("\(key): \(parts[0]) is not a sample type")
            }
            guard orders[type] == nil else { throw ConfigError("\(key) names \(parts[0]) twice") }
            orders[type] = try parts[1].split(separator: ">").map { try item(String($0)) }
        }
        return orders
    }
}
