import Crypto
import HealthSamples

/// A record Hale takes, ready for the sample sync: its type, value and unit as written (the sync converts units, and
/// reads HealthKit's `%` as a fraction), its times with the device's offset, and its content identity.
public struct ImportedSample: Sendable, Equatable {
    /// Hale's type.
    public let type: HealthSampleType
    /// The HealthKit identifier, which the sync API takes as the type.
    public let typeIdentifier: String
    /// The value, in `unit`.
    public let value: Double
    /// The unit as written: the sync converts it.
    public let unit: String
    /// Its start, with the device's offset then.
    public let start: AppleHealthDate
    /// Its end.
    public let end: AppleHealthDate
    /// The source's name as the person sees it.
    public let sourceName: String?
    /// The device's hardware model (`Watch6,2`), as the SDK sends `deviceModel`.
    public let deviceModel: String?
    /// Whether a person typed it in (`HKWasUserEntered`).
    public let userEntered: Bool

    /// Why a record is not imported.
    public enum Skip: Error, Sendable, Equatable, Hashable {
        /// A type Hale has no samples of, named.
        case type(String)
        /// A record Hale would take, but written wrong: which attribute.
        case malformed(String)
    }

    /// The longest `sourceName` taken, in bytes: a device's or an app's name.
    public static let maximumSourceNameBytes = 256
    /// The longest `unit`, in bytes: HealthKit's are short (`count/min`, `mL/(kg·min)`).
    public static let maximumUnitBytes = 32
    /// The longest `device`, in bytes: HealthKit's descriptions are under 300.
    public static let maximumDeviceBytes = 1_024

    /// The record as a sample, or why it is not one. Text longer than a record of Apple's holds makes it malformed,
    /// so that what an import keeps of a sample is small, whatever the file.
    public static func from(_ record: AppleHealthRecord) -> Result<ImportedSample, Skip> {
        guard let type = HealthSampleType(parsing: record.type) else { return .failure(.type(record.type)) }
        guard let text = record.value, let value = Double(text), value.isFinite else {
            return .failure(.malformed("value"))
        }
        guard let unit = record.unit, !unit.isEmpty, unit.utf8.count <= maximumUnitBytes else {
            return .failure(.malformed("unit"))
        }
        guard (record.sourceName?.utf8.count ?? 0) <= maximumSourceNameBytes else {
            return .failure(.malformed("sourceName"))
        }
        guard (record.device?.utf8.count ?? 0) <= maximumDeviceBytes else { return .failure(.malformed("device")) }
        guard let start = record.startDate.flatMap(AppleHealthDate.init) else {
            return .failure(.malformed("startDate"))
        }
        guard let end = record.endDate.flatMap(AppleHealthDate.init) else { return .failure(.malformed("endDate")) }
        return .success(
            ImportedSample(
                type: type, typeIdentifier: record.type, value: value, unit: unit, start: start, end: end,
                sourceName: record.sourceName, deviceModel: record.device.flatMap(AppleHealthDevice.hardware(of:)),
                userEntered: record.userEntered))
    }

    /// What every imported sample's identity starts with, and no platform's own id does.
    public static let identityPrefix = "export-"

    /// The sample's identity: records carry no UUID, so it is their content (type, source, device, start, end,
    /// value and unit), hashed. The same record imported twice has the same identity, and is stored once.
    ///
    /// The SHA-256 of the fields joined by U+001F (dates as `AppleHealthDate.iso8601` writes them, the value as
    /// Swift's `String(value)`), its first 16 bytes in lowercase hex after `identityPrefix`.
    public var identity: String {
        var hash = SHA256()
        let fields = [
            typeIdentifier, sourceName ?? "", deviceModel ?? "", start.iso8601, end.iso8601, String(value), unit,
        ]
        for (index, field) in fields.enumerated() {
            if index > 0 { hash.update(data: Self.separator) }
            Self.update(&hash, with: field)
        }
        return Self.identityPrefix + SampleFingerprint.lowercaseHex(hash.finalize().prefix(16))
    }

    private static let separator: [UInt8] = [0x1F]

    private static func update(_ hash: inout SHA256, with field: String) {
        let hashed: Void? = field.utf8.withContiguousStorageIfAvailable { bytes in
            hash.update(bufferPointer: UnsafeRawBufferPointer(bytes))
        }
        if hashed == nil { hash.update(data: Array(field.utf8)) }
    }
}
