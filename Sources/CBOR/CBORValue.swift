/// A single CBOR data item (RFC 8949), limited to the subset that WebAuthn attestation objects,
/// COSE keys and Apple App Attest use.
///
/// Integers keep the RFC's split into unsigned and negative so that the full range
/// `-2^64 ... 2^64 - 1` is representable without loss. Floats of every width decode to `Double`.
/// Simple values other than `false`, `true`, `null` and `undefined` are not part of the subset.
///
/// Equality is structural over the CBOR data model and stricter than Swift's defaults: text strings
/// compare by their UTF-8 bytes (not Unicode canonical equivalence), floats compare by bit pattern
/// (so `NaN == NaN` and `0.0 != -0.0`) and maps compare entry by entry, in order.
public indirect enum CBORValue: Sendable {
    /// Major type 0: an unsigned integer `0 ... 2^64 - 1`.
    case unsignedInteger(UInt64)
    /// Major type 1: the negative integer `-1 - n`, so `negativeInteger(0)` is `-1` and
    /// `negativeInteger(UInt64.max)` is `-2^64`.
    case negativeInteger(UInt64)
    /// Major type 2: a definite-length byte string.
    case byteString([UInt8])
    /// Major type 3: a definite-length, valid UTF-8 text string.
    case textString(String)
    /// Major type 4: a definite-length array of data items.
    case array([CBORValue])
    /// Major type 5: a map as an ordered list of entries. The decoder keeps the encoded order and
    /// rejects duplicate keys.
    case map([CBORMapEntry])
    /// Major type 6: a tag number and the data item it encloses.
    case tagged(UInt64, CBORValue)
    /// Simple values 20 and 21: `false` and `true`.
    case boolean(Bool)
    /// Simple value 22: `null`.
    case null
    /// Simple value 23: `undefined`.
    case undefined
    /// A half-, single- or double-precision float, widened to `Double`.
    case float(Double)
}

/// One key/value pair of a CBOR map.
public struct CBORMapEntry: Sendable, Hashable {
    /// The entry's key; any CBOR value may be a key.
    public let key: CBORValue
    /// The value stored under ``key``.
    public let value: CBORValue

    /// Creates a map entry.
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - value: The value stored under `key`.
    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
