import Synchronization

/// The `device` attribute of an export record, as HealthKit prints an `HKDevice`:
/// `<<HKDevice: 0x283a9c0f0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:9.1>`.
/// Values may hold commas (`Watch6,2`), so a field ends only where `, ` and the next known key begin.
public struct AppleHealthDevice: Sendable, Equatable {
    /// `name`: "Apple Watch", "iPhone".
    public let name: String?
    /// `model`: "Watch", "iPhone".
    public let model: String?
    /// `hardware`: "Watch6,2", "iPhone15,2": what the SDK sends as `deviceModel`.
    public let hardware: String?

    /// A device with these fields.
    public init(name: String?, model: String?, hardware: String?) {
        self.name = name
        self.model = model
        self.hardware = hardware
    }

    /// The `hardware` of `text`, remembered: an export repeats a handful of device strings across millions of
    /// records, and parsing one is the slowest step of reading a record.
    public static func hardware(of text: String) -> String? {
        if let known = hardwareCache.withLock({ $0[text] }) { return known }
        let hardware = AppleHealthDevice(text).hardware
        hardwareCache.withLock { cache in
            if cache.count >= 1_024 { cache.removeAll(keepingCapacity: true) }
            cache[text] = .some(hardware)
        }
        return hardware
    }

    private static let hardwareCache = Mutex<[String: String?]>([:])

    static let keys = [
        "name", "manufacturer", "model", "hardware", "software", "localIdentifier", "firmware", "UDIDeviceIdentifier",
    ]

    /// Parses the attribute; fields it does not find are nil.
    public init(_ text: String) {
        var fields: [String: String] = [:]
        var body = Substring(text)
        if let start = body.range(of: ">, ") { body = body[start.upperBound...] }
        while body.hasSuffix(">") { body = body.dropLast() }
        var current: (key: String, start: Substring.Index)?
        var index = body.startIndex
        while index < body.endIndex {
            let rest = body[index...]
            let atFieldStart = index == body.startIndex || body[..<index].hasSuffix(", ")
            if atFieldStart, let key = Self.keys.first(where: { rest.hasPrefix($0 + ":") }) {
                if let current {
                    let end = body.index(index, offsetBy: -2, limitedBy: current.start) ?? current.start
                    fields[current.key] = String(body[current.start..<end])
                }
                let valueStart = body.index(index, offsetBy: key.count + 1)
                current = (key, valueStart)
                index = valueStart
                continue
            }
            index = body.index(after: index)
        }
        if let current { fields[current.key] = String(body[current.start...]) }
        name = fields["name"]
        model = fields["model"]
        hardware = fields["hardware"]
    }
}
