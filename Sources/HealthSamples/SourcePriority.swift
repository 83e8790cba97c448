/// How samples from different sources rank when they cover the same time, so the same walk seen by a watch and a
/// phone is counted once.
///
/// A sample's rank compares, in order:
/// 1. **Entry**: a sample recorded by a device ranks above one a person entered by hand.
/// 2. **Device class**: by `deviceOrder` — by default a watch (model containing `Watch`) above a phone (model
///    containing `iPhone`, or a Health Connect phone) above anything else. A class missing from the list ranks
///    below all listed ones.
/// 3. **App**: by `bundleOrder`, earlier above later; an app not in the list ranks below all listed ones, and all
///    unlisted apps rank equal.
///
/// Samples equal in all three rank equal. `DailyRollup` describes how ranks decide what is counted.
public struct SourcePriority: Hashable, Sendable {
    /// Device classes from highest to lowest priority.
    public var deviceOrder: [DeviceClass]
    /// Source bundle ids or package names from highest to lowest priority.
    public var bundleOrder: [String]
    /// When `true`, samples a person entered by hand are left out entirely, as fitness challenges require.
    public var excludesUserEntered: Bool
    /// When set, only verified samples (`SampleSource.isVerified`) from these device classes take part: what a
    /// verified fitness challenge counts from the sources its creator chose.
    public var verifiedFrom: Set<DeviceClass>?

    /// A priority; the defaults rank watch over phone over other, with no app order, and keep user-entered samples.
    public init(
        deviceOrder: [DeviceClass] = [.watch, .phone, .other], bundleOrder: [String] = [],
        excludesUserEntered: Bool = false, verifiedFrom: Set<DeviceClass>? = nil
    ) {
        self.deviceOrder = deviceOrder
        self.bundleOrder = bundleOrder
        self.excludesUserEntered = excludesUserEntered
        self.verifiedFrom = verifiedFrom
    }

    /// Watch over phone over other, no app order, user-entered samples kept (ranked lowest).
    public static let `default` = SourcePriority()

    /// The position of a sample's source; a greater rank claims its time from lesser ones.
    public struct Rank: Hashable, Sendable, Comparable {
        // Each component: smaller is better.
        let entry: Int
        let device: Int
        let bundle: Int

        /// Whether `lhs` ranks below `rhs`.
        public static func < (lhs: Rank, rhs: Rank) -> Bool {
            (lhs.entry, lhs.device, lhs.bundle) > (rhs.entry, rhs.device, rhs.bundle)
        }
    }

    /// The rank of `source`.
    public func rank(of source: SampleSource) -> Rank {
        let device = deviceOrder.firstIndex(of: source.deviceClass) ?? deviceOrder.count
        let bundle = source.bundleID.flatMap { bundleOrder.firstIndex(of: $0) } ?? bundleOrder.count
        return Rank(entry: source.isUserEntered ? 1 : 0, device: device, bundle: bundle)
    }

    /// Whether a sample from `source` takes part in rollups at all.
    public func includes(_ source: SampleSource) -> Bool {
        if let verifiedFrom {
            return source.isVerified && verifiedFrom.contains(source.deviceClass)
        }
        return !(excludesUserEntered && source.isUserEntered)
    }
}
