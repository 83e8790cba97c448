import Foundation

/// A synced sample as stored: its identity (account, provider, platform id), its canonical quantity, its time and
/// offset, its source, and the version that decides whether a re-sent sample replaces it.
public struct StoredHealthSample: Sendable, Equatable, Codable {
    /// The row.
    public var id: UUID
    /// The account.
    public var accountId: AccountID
    /// `healthkit`, `health_connect` or `googlefit`.
    public var provider: String
    /// The HealthKit UUID or Health Connect record id; seed 004's content hash when the client sent none.
    public var platformId: String
    /// The `HealthSampleType` raw value.
    public var type: String
    /// The value in the type's canonical unit.
    public var value: Double
    /// The start.
    public var startAt: Date
    /// The end.
    public var endAt: Date
    /// The device's offset from UTC at the start, in seconds.
    public var utcOffsetSeconds: Int
    /// The app that wrote it.
    public var sourceBundle: String?
    /// The device model that recorded it.
    public var deviceModel: String?
    /// Health Connect's device type.
    public var deviceType: String?
    /// Whether a person typed it in.
    public var userEntered: Bool
    /// What proved the attested write that stored it (App Attest or Play Integrity, over its body); nil when the
    /// write was not attested.
    public var proofId: UUID? = nil

    /// Whether the write that stored it was attested.
    public var attested: Bool { proofId != nil }
    /// The client's version or last-modified time in milliseconds.
    public var version: Int64?
    /// Seed 004's content hash.
    public var dedupHash: String
    /// When first stored.
    public var createdAt: Date
    /// When last changed.
    public var updatedAt: Date

    /// The sample the rollup rules take; nil for a row whose type this version of Hale does not know.
    var sample: HealthSample? {
        guard let type = HealthSampleType(rawValue: type),
            let quantity = try? HealthQuantity(type: type, canonicalValue: value)
        else {
            return nil
        }
        return try? HealthSample(
            quantity: quantity, start: startAt, end: endAt, utcOffsetSeconds: utcOffsetSeconds,
            source: SampleSource(
                bundleID: sourceBundle, deviceModel: deviceModel, deviceType: deviceType, isUserEntered: userEntered,
                isAttested: attested))
    }

    /// Whether `other` says the same as this: what, when, where from. Identity, version, times and whether it was
    /// attested are not compared.
    func hasSameContent(as other: StoredHealthSample) -> Bool {
        type == other.type && value == other.value && Self.sameMillisecond(startAt, other.startAt)
            && Self.sameMillisecond(endAt, other.endAt) && utcOffsetSeconds == other.utcOffsetSeconds
            && sourceBundle == other.sourceBundle
            && deviceModel == other.deviceModel && deviceType == other.deviceType && userEntered == other.userEntered
    }

    /// Times are kept to the millisecond, but a time read back from either database may differ from the one written
    /// in its last binary digits; compared exactly, an unchanged sample counted as an update.
    private static func sameMillisecond(_ first: Date, _ second: Date) -> Bool {
        (first.timeIntervalSince1970 * 1000).rounded() == (second.timeIntervalSince1970 * 1000).rounded()
    }
}
