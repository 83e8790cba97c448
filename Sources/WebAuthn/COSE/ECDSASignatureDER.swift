/// A P-256 ECDSA signature in DER (`SEQUENCE { r INTEGER, s INTEGER }`), as WebAuthn sends it, read into the
/// fixed-width r ‖ s form. Strict DER: minimal lengths and integers, positive values, nothing after the sequence.
/// It replaces a round trip through BoringSSL's big numbers that cost a tenth of a whole sign-in.
enum ECDSASignatureDER {
    /// r ‖ s, each left-padded to 32 bytes, or `nil` if `der` is not a strict DER signature with 32-byte values.
    static func rawP256(_ der: [UInt8]) -> [UInt8]? {
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2, der[1] < 0x80 else { return nil }
        var raw: [UInt8] = []
        raw.reserveCapacity(64)
        var offset = 2
        for _ in 0..<2 {
            guard let (value, next) = integer(der, at: offset) else { return nil }
            raw += [UInt8](repeating: 0, count: 32 - value.count) + value
            offset = next
        }
        return offset == der.count ? raw : nil
    }

    /// The magnitude of the INTEGER at `offset` (at most 32 bytes), and the offset after it.
    private static func integer(_ der: [UInt8], at offset: Int) -> (ArraySlice<UInt8>, Int)? {
        guard offset + 2 <= der.count, der[offset] == 0x02 else { return nil }
        let length = Int(der[offset + 1])
        let start = offset + 2
        guard length >= 1, length < 0x80, start + length <= der.count else { return nil }
        var value = der[start..<start + length]
        guard der[start] < 0x80 else { return nil }
        if der[start] == 0 && length > 1 {
            guard der[start + 1] >= 0x80 else { return nil }
            value = value.dropFirst()
        }
        guard value.count <= 32 else { return nil }
        return (value, start + length)
    }
}
