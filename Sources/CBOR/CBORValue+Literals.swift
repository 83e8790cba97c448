extension CBORValue {
    /// Creates an integer value, choosing ``unsignedInteger(_:)`` or ``negativeInteger(_:)`` by sign.
    /// - Parameter integer: The integer to represent.
    public init(_ integer: Int64) {
        // `-1 - Int64.min` is `Int64.max`, so this never overflows.
        self = integer >= 0 ? .unsignedInteger(UInt64(integer)) : .negativeInteger(UInt64(-1 - integer))
    }
}

extension CBORValue: ExpressibleByIntegerLiteral {
    /// Creates an integer value from a literal such as `-7`.
    public init(integerLiteral value: Int64) {
        self.init(value)
    }
}

extension CBORValue: ExpressibleByStringLiteral {
    /// Creates a ``textString(_:)`` from a literal.
    public init(stringLiteral value: String) {
        self = .textString(value)
    }
}

extension CBORValue: ExpressibleByBooleanLiteral {
    /// Creates a ``boolean(_:)`` from `true` or `false`.
    public init(booleanLiteral value: Bool) {
        self = .boolean(value)
    }
}

extension CBORValue: ExpressibleByFloatLiteral {
    /// Creates a ``float(_:)`` from a literal such as `1.5`.
    public init(floatLiteral value: Double) {
        self = .float(value)
    }
}

extension CBORValue: ExpressibleByArrayLiteral {
    /// Creates an ``array(_:)`` from a literal.
    public init(arrayLiteral elements: CBORValue...) {
        self = .array(elements)
    }
}

extension CBORValue: ExpressibleByDictionaryLiteral {
    /// Creates a ``map(_:)`` from a literal, keeping the written order (duplicates are not checked).
    public init(dictionaryLiteral elements: (CBORValue, CBORValue)...) {
        self = .map(elements.map { CBORMapEntry(key: $0.0, value: $0.1) })
    }
}
