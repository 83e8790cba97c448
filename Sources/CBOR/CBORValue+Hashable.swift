extension CBORValue: Hashable {
    /// Structural equality: text by UTF-8 bytes, floats by bit pattern, maps entry by entry in order.
    public static func == (lhs: CBORValue, rhs: CBORValue) -> Bool {
        switch (lhs, rhs) {
        case (.unsignedInteger(let a), .unsignedInteger(let b)), (.negativeInteger(let a), .negativeInteger(let b)):
            return a == b
        case (.byteString(let a), .byteString(let b)):
            return a == b
        case (.textString(let a), .textString(let b)):
            return a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)):
            return a == b
        case (.map(let a), .map(let b)):
            return a == b
        case (.tagged(let tagA, let a), .tagged(let tagB, let b)):
            return tagA == tagB && a == b
        case (.boolean(let a), .boolean(let b)):
            return a == b
        case (.null, .null), (.undefined, .undefined):
            return true
        case (.float(let a), .float(let b)):
            return a.bitPattern == b.bitPattern
        default:
            return false
        }
    }

    /// Hashes the canonical encoding, which is identical for any two equal values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(CBOREncoder().encode(self))
    }
}
