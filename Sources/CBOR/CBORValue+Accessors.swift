extension CBORValue {
    /// The value stored under `key` if this is a map containing it, otherwise `nil`.
    ///
    /// Lookup is a linear scan, which suits the small maps of WebAuthn and COSE.
    public subscript(key: CBORValue) -> CBORValue? {
        mapEntries?.first { $0.key == key }?.value
    }

    /// The value stored under the text-string key `textKey` if this is a map, otherwise `nil`.
    public subscript(_ textKey: String) -> CBORValue? {
        self[.textString(textKey)]
    }

    /// The value stored under the integer key `intKey` if this is a map, otherwise `nil`.
    ///
    /// This is a map lookup (as COSE labels such as `-2` need), not an array index.
    public subscript(_ intKey: Int) -> CBORValue? {
        self[CBORValue(Int64(intKey))]
    }

    /// The bytes of a ``byteString(_:)``, otherwise `nil`.
    public var bytes: [UInt8]? {
        guard case .byteString(let bytes) = self else { return nil }
        return bytes
    }

    /// The string of a ``textString(_:)``, otherwise `nil`.
    public var text: String? {
        guard case .textString(let text) = self else { return nil }
        return text
    }

    /// The integer value when this is an integer that fits in `Int64`, otherwise `nil`.
    public var int: Int64? {
        switch self {
        case .unsignedInteger(let n): Int64(exactly: n)
        case .negativeInteger(let n): Int64(exactly: n).map { -1 - $0 }
        default: nil
        }
    }

    /// The elements of an ``array(_:)``, otherwise `nil`.
    public var array: [CBORValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The entries of a ``map(_:)`` in their encoded order, otherwise `nil`.
    public var mapEntries: [CBORMapEntry]? {
        guard case .map(let entries) = self else { return nil }
        return entries
    }
}
