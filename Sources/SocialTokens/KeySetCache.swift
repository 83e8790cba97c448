import Foundation

/// The key sets fetched so far and when each may next be fetched: the decisions, without the I/O.
///
/// A set is fetched when none is cached, when the cached one has expired, or when a token names a `kid` the set does
/// not hold; but, once a set is cached, never twice within the refresh interval. A set that has expired and cannot be
/// refreshed (the provider is down, or it was fetched too recently) stays in use until a fetch succeeds.
struct KeySetCache: Sendable {
    /// What to do for a token's `kid`.
    enum Plan {
        /// Verify with this key.
        case use(JSONWebKey)
        /// Fetch the set, then look again.
        case fetch
        /// Refuse: the key is unknown and the set was fetched too recently to fetch again.
        case unknownKey
    }

    private struct Entry {
        var keySet: JSONWebKeySet
        var expiresAt: Date
    }

    private var entries: [String: Entry] = [:]
    private var lastFetchStarted: [String: Date] = [:]
    private var fetchCounts: [String: Int] = [:]

    /// What to do for `keyID` in the set at `url`.
    func plan(keyID: String, url: String, now: Date, refreshInterval: Duration) -> Plan {
        guard let entry = entries[url] else { return .fetch }
        let mayFetch = lastFetchStarted[url].map { now >= $0.addingTimeInterval(refreshInterval.timeInterval) } ?? true
        if now < entry.expiresAt || !mayFetch, let key = entry.keySet[keyID] { return .use(key) }
        return mayFetch ? .fetch : .unknownKey
    }

    /// The key with `keyID` in the set at `url`, fresh or expired.
    func cachedKey(keyID: String, url: String) -> JSONWebKey? {
        entries[url]?.keySet[keyID]
    }

    /// Whether a set from `url` is cached, fresh or expired.
    func holdsSet(for url: String) -> Bool {
        entries[url] != nil
    }

    /// How many fetches of `url` have started.
    func fetchCount(_ url: String) -> Int {
        fetchCounts[url, default: 0]
    }

    /// Notes that a fetch of `url` starts now.
    mutating func fetchStarted(_ url: String, now: Date) {
        lastFetchStarted[url] = now
        fetchCounts[url, default: 0] += 1
    }

    /// Keeps a set fetched from `url`, usable for its lifetime from `now`.
    mutating func store(_ download: KeySetDownload, for url: String, now: Date) {
        entries[url] = Entry(keySet: download.keySet, expiresAt: now.addingTimeInterval(download.lifetime.timeInterval))
    }
}
