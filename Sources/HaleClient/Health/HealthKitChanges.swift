/// What an anchored query found since the last sync: the samples added or changed, the identifiers of the samples
/// deleted, and the anchor to start from next time. Persist `anchor` only after the sync that sent these succeeded,
/// so nothing is lost when it fails.
public struct HealthKitChanges: Sendable {
    /// Samples added or changed.
    public var samples: [HealthSyncSample]
    /// The HealthKit UUIDs of deleted samples.
    public var deletedIDs: [String]
    /// The archived `HKQueryAnchor` to pass to the next query.
    public var anchor: [UInt8]?

    /// Changes.
    public init(samples: [HealthSyncSample], deletedIDs: [String], anchor: [UInt8]?) {
        self.samples = samples
        self.deletedIDs = deletedIDs
        self.anchor = anchor
    }
}
