/// What a batch does to the stored samples, decided sample by sample in batch order, so a sample sent twice in one
/// batch behaves as if sent in two.
///
/// - A sample not stored yet is inserted.
/// - A sample stored with the same content is deduplicated, unless it arrives attested and was stored unattested:
///   then it updates the stored one, which is attested from then on.
/// - A sample with changed content updates the stored one, unless both carry versions and the stored one is as new
///   or newer; then it is deduplicated as stale.
struct SyncPlan {
    private var current: [String: StoredHealthSample]
    private var inserted: [String: StoredHealthSample] = [:]
    private var insertOrder: [String] = []
    private var updated: [String: StoredHealthSample] = [:]
    private(set) var replaced: [StoredHealthSample] = []
    private(set) var deduplicated = 0

    init(existing: [String: StoredHealthSample]) {
        current = existing
    }

    /// New rows, in batch order.
    var inserts: [StoredHealthSample] { insertOrder.compactMap { inserted[$0] } }
    /// Changed rows of samples stored before this batch.
    var updates: [StoredHealthSample] { Array(updated.values) }

    mutating func add(_ sample: StoredHealthSample) {
        guard let stored = current[sample.platformId] else {
            current[sample.platformId] = sample
            inserted[sample.platformId] = sample
            insertOrder.append(sample.platformId)
            return
        }
        let attests = sample.attested && !stored.attested
        if (stored.hasSameContent(as: sample) && !attests) || Self.isStale(sample, against: stored) {
            deduplicated += 1
            return
        }
        var next = sample
        next.id = stored.id
        next.createdAt = stored.createdAt
        current[sample.platformId] = next
        if inserted[sample.platformId] != nil {
            inserted[sample.platformId] = next
        } else {
            if updated[sample.platformId] == nil { replaced.append(stored) }
            updated[sample.platformId] = next
        }
    }

    private static func isStale(_ sample: StoredHealthSample, against stored: StoredHealthSample) -> Bool {
        guard let incoming = sample.version, let existing = stored.version else { return false }
        return incoming <= existing
    }
}
