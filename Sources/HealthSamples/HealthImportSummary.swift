/// What an Apple Health import came to: the server counts it as it reads, stores it with the import and answers
/// it; the SDK decodes the same type.
public struct HealthImportSummary: Sendable, Hashable, Codable {
    /// The most types `skippedByType` names; records of any further type are counted in `skippedOtherTypes`,
    /// so a file of a million made-up types makes a summary of a few kilobytes.
    public static let maximumNamedTypes = 64

    /// `Record`s and `Workout`s read.
    public var recordsRead = 0
    /// Samples stored.
    public var imported = 0
    /// Samples already stored: from an earlier import, or synced through HealthKit.
    public var deduplicated = 0
    /// Records of types Hale has no samples of (and correlations and activity summaries), by type: the first
    /// `maximumNamedTypes` types met.
    public private(set) var skippedByType: [String: Int] = [:]
    /// Records of types Hale has no samples of, of types beyond those `skippedByType` names.
    public private(set) var skippedOtherTypes = 0
    /// Records of types the person does not share from Apple Health, by Hale's type.
    public var skippedWithoutConsent: [String: Int] = [:]
    /// Records refused, by reason (`malformed startDate`, the sync's codes such as `OUT_OF_WINDOW`).
    public var rejected: [String: Int] = [:]

    /// Nothing read yet.
    public init() {}

    /// Counts `count` records of a type Hale has no samples of: by its name while fewer than
    /// `maximumNamedTypes` are named.
    public mutating func skip(type: String, count: Int = 1) {
        if skippedByType[type] != nil || skippedByType.count < Self.maximumNamedTypes {
            skippedByType[type, default: 0] += count
        } else {
            skippedOtherTypes += count
        }
    }

    /// Adds another summary's counts to this one's.
    public mutating func add(_ other: HealthImportSummary) {
        recordsRead += other.recordsRead
        imported += other.imported
        deduplicated += other.deduplicated
        // Sorted, so which types are named does not depend on a dictionary's order.
        for (type, count) in other.skippedByType.sorted(by: { $0.key < $1.key }) { skip(type: type, count: count) }
        skippedOtherTypes += other.skippedOtherTypes
        skippedWithoutConsent.merge(other.skippedWithoutConsent, uniquingKeysWith: +)
        rejected.merge(other.rejected, uniquingKeysWith: +)
    }

    private enum CodingKeys: String, CodingKey {
        case recordsRead, imported, deduplicated, skippedByType, skippedOtherTypes, skippedWithoutConsent, rejected
    }

    /// Decodes a summary; one stored, or answered by a server, from before `skippedOtherTypes` existed has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordsRead = try container.decode(Int.self, forKey: .recordsRead)
        imported = try container.decode(Int.self, forKey: .imported)
        deduplicated = try container.decode(Int.self, forKey: .deduplicated)
        skippedByType = try container.decode([String: Int].self, forKey: .skippedByType)
        skippedOtherTypes = try container.decodeIfPresent(Int.self, forKey: .skippedOtherTypes) ?? 0
        skippedWithoutConsent = try container.decode([String: Int].self, forKey: .skippedWithoutConsent)
        rejected = try container.decode([String: Int].self, forKey: .rejected)
    }
}
