/// Conversions between IEEE 754 half-precision bit patterns and `Double`, done by hand so they work
/// on every platform (`Float16` is unavailable on some).
enum HalfPrecision {
    /// The `Double` a half-precision bit pattern denotes (RFC 8949 Appendix D).
    static func double(fromBits bits: UInt16) -> Double {
        let sign: FloatingPointSign = bits & 0x8000 == 0 ? .plus : .minus
        let exponent = Int((bits >> 10) & 0x1f)
        let mantissa = Double(bits & 0x3ff)
        switch exponent {
        case 0: return Double(sign: sign, exponent: -24, significand: mantissa)
        case 31 where mantissa == 0: return sign == .minus ? -.infinity : .infinity
        case 31: return .nan
        default: return Double(sign: sign, exponent: exponent - 25, significand: mantissa + 1024)
        }
    }

    /// The half-precision bit pattern for `value` when the conversion loses nothing, otherwise `nil`.
    /// Every NaN maps to the canonical quiet NaN `0x7e00`.
    static func bits(exactly value: Double) -> UInt16? {
        let sign: UInt16 = value.sign == .minus ? 0x8000 : 0
        if value.isNaN { return 0x7e00 }
        if value.isInfinite { return sign | 0x7c00 }
        if value == 0 { return sign }
        switch value.exponent {
        case -14...15: return normalBits(value, sign: sign)
        case -24 ..< -14: return subnormalBits(value, sign: sign)
        default: return nil
        }
    }

    private static func normalBits(_ value: Double, sign: UInt16) -> UInt16? {
        let droppedBits: UInt64 = (1 << 42) - 1
        guard value.significandBitPattern & droppedBits == 0 else { return nil }
        let exponent = UInt16(value.exponent + 15) << 10
        return sign | exponent | UInt16(value.significandBitPattern >> 42)
    }

    private static func subnormalBits(_ value: Double, sign: UInt16) -> UInt16? {
        let units = value.magnitude * 0x1p24
        guard units == units.rounded(.towardZero) else { return nil }
        return sign | UInt16(units)
    }
}
