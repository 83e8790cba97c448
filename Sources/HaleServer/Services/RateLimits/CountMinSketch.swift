/// Counts of any number of keys in fixed memory (Cormode and Muthukrishnan's count-min sketch): `depth` rows of
/// `width` counters, each key hashed to one counter in every row.
///
/// A key's estimate is the least of its counters. It is never below the key's true count, and above it only when
/// other keys share every one of its counters. Counting is conservative (Estan and Varghese): only the key's counters
/// that hold the least value are raised, which keeps every estimate as low as the structure allows. Positions come
/// from Swift's `Hasher`, seeded at random per process, and a random salt per sketch, so nobody outside can choose
/// keys that land on someone else's counters.
struct CountMinSketch: Sendable {
    /// Counters per row; a power of two.
    let width: Int
    /// Rows.
    let depth: Int
    private let salt: UInt64
    private var counters: [UInt32]

    /// An empty sketch. `width` must be a power of two.
    init(width: Int, depth: Int) {
        precondition(width > 0 && width & (width - 1) == 0 && depth > 0, "width is a power of two, depth positive")
        self.width = width
        self.depth = depth
        salt = UInt64.random(in: .min ... .max)
        counters = [UInt32](repeating: 0, count: width * depth)
    }

    /// The bytes the counters take, whatever the number of keys counted.
    var memoryBytes: Int { counters.count * MemoryLayout<UInt32>.stride }

    /// Counts `key` once if its estimate is below `limit` and returns true; otherwise changes nothing and returns
    /// false. Costs one hash and `depth` reads and writes, however many keys the sketch has seen.
    mutating func count(_ key: some Hashable, below limit: UInt32) -> Bool {
        let (first, step) = positions(of: key)
        var least = UInt32.max
        for row in 0..<depth {
            least = min(least, counters[index(row, first, step)])
        }
        guard least < limit else { return false }
        for row in 0..<depth {
            let index = index(row, first, step)
            counters[index] = max(counters[index], least + 1)
        }
        return true
    }

    /// Forgets every count.
    mutating func removeAll() {
        counters.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// One 64-bit hash split into a start and an odd step; row `i` uses `start + i × step`, which serves as well as
    /// a hash per row (Kirsch and Mitzenmacher, "Less hashing, same performance").
    private func positions(of key: some Hashable) -> (first: UInt64, step: UInt64) {
        var hasher = Hasher()
        hasher.combine(salt)
        hasher.combine(key)
        let hash = UInt64(truncatingIfNeeded: hasher.finalize())
        return (hash & 0xffff_ffff, hash >> 32 | 1)
    }

    private func index(_ row: Int, _ first: UInt64, _ step: UInt64) -> Int {
        row * width + Int((first &+ UInt64(row) &* step) & UInt64(width - 1))
    }
}
