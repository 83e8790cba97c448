/// A half-open interval of seconds since 1970, for the interval arithmetic of source priority.
struct ClosedOpenSeconds: Hashable, Sendable {
    var lower: Double
    var upper: Double
}

extension [ClosedOpenSeconds] {
    /// `intervals` (non-empty ones) merged into sorted, disjoint intervals; touching intervals join.
    static func union(of intervals: [ClosedOpenSeconds]) -> [ClosedOpenSeconds] {
        var merged: [ClosedOpenSeconds] = []
        for interval in intervals.filter({ $0.upper > $0.lower }).sorted(by: { $0.lower < $1.lower }) {
            if let last = merged.last, interval.lower <= last.upper {
                merged[merged.count - 1].upper = Swift.max(last.upper, interval.upper)
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    /// The index of the first interval (of sorted, disjoint ones) that ends after `instant`.
    private func firstEnding(after instant: Double) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].upper <= instant { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether `instant` lies in one of these sorted, disjoint intervals.
    func contains(instant: Double) -> Bool {
        let index = firstEnding(after: instant)
        return index < count && self[index].lower <= instant
    }

    /// The parts of `interval` outside these sorted, disjoint intervals, in order.
    func gaps(in interval: ClosedOpenSeconds) -> [ClosedOpenSeconds] {
        var gaps: [ClosedOpenSeconds] = []
        var from = interval.lower
        var index = firstEnding(after: from)
        while index < count, self[index].lower < interval.upper, from < interval.upper {
            if self[index].lower > from { gaps.append(ClosedOpenSeconds(lower: from, upper: self[index].lower)) }
            from = Swift.max(from, self[index].upper)
            index += 1
        }
        if from < interval.upper { gaps.append(ClosedOpenSeconds(lower: from, upper: interval.upper)) }
        return gaps
    }
}
