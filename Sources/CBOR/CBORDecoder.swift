/// Decodes CBOR (RFC 8949) into ``CBORValue`` under configurable resource limits.
///
/// The decoder accepts the definite-length subset used by WebAuthn, COSE and App Attest:
///
/// - Indefinite-length strings, arrays and maps are rejected. WebAuthn requires authenticator data and
///   attestation objects to use the CTAP2 canonical CBOR encoding form, which allows definite lengths only.
/// - Integers, lengths and tags in non-shortest form (for example `0x18 0x05` for `5`) are accepted.
///   Some real authenticators emit them, the value is unambiguous, and signatures are always checked
///   over the original bytes rather than a re-encoding, so strictness here would only reject genuine
///   devices without adding any security.
/// - Duplicate map keys, invalid UTF-8, reserved additional information and unassigned simple values
///   are rejected.
public struct CBORDecoder: Sendable {
    /// The maximum number of arrays, maps and tags enclosing one another; `[[]]` has depth 2.
    public let maximumDepth: Int
    /// The maximum byte count of a byte or text string and the maximum element count of an array or map.
    public let maximumLength: Int
    /// The maximum size of the whole input in bytes, checked before anything is decoded.
    public let maximumInputSize: Int

    /// Creates a decoder with the given limits. All limits must be non-negative.
    /// - Parameters:
    ///   - maximumDepth: The deepest nesting of arrays, maps and tags allowed.
    ///   - maximumLength: The largest string length or array/map element count allowed.
    ///   - maximumInputSize: The largest input, in bytes, that the decoder will look at.
    public init(maximumDepth: Int = 16, maximumLength: Int = 1 << 20, maximumInputSize: Int = 1 << 24) {
        precondition(maximumDepth >= 0 && maximumLength >= 0 && maximumInputSize >= 0, "CBOR limits must be >= 0")
        self.maximumDepth = maximumDepth
        self.maximumLength = maximumLength
        self.maximumInputSize = maximumInputSize
    }

    /// Decodes exactly one data item that must span the whole input.
    /// - Parameter bytes: The encoded item.
    /// - Returns: The decoded value.
    /// - Throws: ``CBORError`` with ``CBORError/Code/trailingBytes`` if bytes remain after the item, or
    ///   any other code if the item is malformed or exceeds a limit.
    public func decode(_ bytes: some Collection<UInt8>) throws(CBORError) -> CBORValue {
        let (value, consumedByteCount) = try decodePrefix(bytes)
        guard consumedByteCount == bytes.count else {
            throw CBORError(.trailingBytes, offset: consumedByteCount)
        }
        return value
    }

    /// Decodes one data item from the start of the input and reports how many bytes it used, leaving the
    /// rest for the caller. WebAuthn needs this for authenticator data, where the credential public key
    /// is followed directly by extension data.
    /// - Parameter bytes: Input beginning with an encoded item; anything after the item is ignored.
    /// - Returns: The decoded value and the number of bytes it occupied.
    /// - Throws: ``CBORError`` if the item is malformed or exceeds a limit.
    public func decodePrefix(
        _ bytes: some Collection<UInt8>
    ) throws(CBORError) -> (value: CBORValue, consumedByteCount: Int) {
        guard bytes.count <= maximumInputSize else {
            throw CBORError(.inputTooLarge, offset: maximumInputSize)
        }
        var parser = CBORParser(bytes: Array(bytes), limits: self)
        let value = try parser.parseItem(depth: 0)
        return (value, parser.position)
    }
}
