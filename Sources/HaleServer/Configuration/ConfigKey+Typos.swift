extension ConfigKey {
    /// A `HALE_` environment variable that names no key, and the key it most likely meant.
    public struct UnknownVariable: Sendable, Equatable {
        /// The variable as set.
        public let name: String
        /// The key whose variable is closest, when one is close enough to be a typo.
        public let closest: ConfigKey?

        /// What the start-up warning says.
        public var warning: String {
            guard let closest else { return "\(name) is not a configuration variable; it is ignored" }
            return "\(name) is not a configuration variable; it is ignored. Did you mean "
                + "\(closest.environmentVariable) (\(closest.path))?"
        }
    }

    /// Variables of Hale's own tests and tools, which configure those, not the server.
    public static let toolVariables: Set<String> = ["HALE_BINARY", "HALE_URL", "HALE_TOKEN"]
    /// Prefixes of more such variables.
    public static let toolVariablePrefixes = ["HALE_TEST_", "HALE_HOSTILE_", "HALE_FUZZ_"]

    /// The `HALE_` variables among `names` that are neither a key's nor a tool's, in name order.
    public static func unknownVariables(in names: some Sequence<String>) -> [UnknownVariable] {
        let known = Set(all.flatMap { [$0.environmentVariable, $0.fileVariable] })
        return names.filter { name in
            name.hasPrefix("HALE_") && !known.contains(name) && !toolVariables.contains(name)
                && !toolVariablePrefixes.contains(where: name.hasPrefix)
        }
        .sorted()
        .map { UnknownVariable(name: $0, closest: closest(to: $0)) }
    }

    /// The key whose variable is fewest edits from `name`, if that is at most a third of its length: a typo, not
    /// another word.
    static func closest(to name: String) -> ConfigKey? {
        let scored = all.map { ($0, editDistance(Array(name.utf8), Array($0.environmentVariable.utf8))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 * 3 <= name.utf8.count else { return nil }
        return best.0
    }

    /// Levenshtein distance, one row at a time.
    static func editDistance(_ source: [UInt8], _ target: [UInt8]) -> Int {
        var previous = Array(0...target.count)
        for (row, byte) in source.enumerated() {
            var current = [row + 1]
            for (column, other) in target.enumerated() {
                let substitution = previous[column] + (byte == other ? 0 : 1)
                current.append(min(substitution, previous[column + 1] + 1, current[column] + 1))
            }
            previous = current
        }
        return previous[target.count]
    }
}
