/// Comparison whose time depends only on the lengths of its inputs, never on where they first differ: for secrets,
/// digests and tags a client presents.
public enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes.
    public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }

    /// Whether `lhs` and `rhs` have the same UTF-8 bytes.
    public static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(Array(lhs.utf8), Array(rhs.utf8))
    }
}
