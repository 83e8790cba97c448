import CBOR

extension FuzzTarget {
    /// `Sources/CBOR`: decodes the input with the limits WebAuthn uses, then checks that encoding is canonical: the
    /// encoding of what was decoded decodes to a value with the same encoding. Inputs are any bytes.
    static let cbor = FuzzTarget(name: "cbor") { bytes in
        let decoder = CBORDecoder(maximumDepth: 8, maximumLength: 65_536)
        _ = try? decoder.decodePrefix(bytes)
        guard let value = try? decoder.decode(bytes) else { return }
        let encoded = CBOREncoder().encode(value)
        let again: CBORValue
        do throws(CBORError) {
            again = try decoder.decode(encoded)
        } catch {
            // Distinct NaN keys encode as the one canonical NaN, so their map cannot be decoded again.
            precondition(error.code == .duplicateMapKey, "CBOR's encoding of a decoded value does not decode: \(error)")
            return
        }
        precondition(CBOREncoder().encode(again) == encoded, "CBOR re-encoding is not canonical")
    }
}
