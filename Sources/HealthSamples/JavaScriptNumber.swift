/// JavaScript's Number-to-String (ECMAScript §6.1.6.1.20 `Number::toString`, radix 10), which seed 004's sample
/// hash embeds through a template literal.
public enum JavaScriptNumber {
    /// `value` as JavaScript's `String(value)` writes it: shortest round-trip digits, integers without `.0`,
    /// exponent form (`1e+21`, `1.5e-7`) when the decimal exponent is 21 or more, or below -6.
    public static func string(_ value: Double) -> String {
        // Steps 1–4: the special values.
        if value.isNaN { return "NaN" }
        if value == 0 { return "0" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value < 0 { return "-" + string(-value) }
        // Whole numbers below 2^53, most of what clients send, are written as their digits.
        if value < 9_007_199_254_740_992, value == value.rounded(.towardZero) { return String(Int64(value)) }
        // Step 5: the shortest digits s (k of them) and n with value = s × 10^(n−k). Swift's description is the
        // shortest round-trip representation closest to the value, as the spec's note requires; only its layout differs.
        let (digits, n) = decimalDigits(of: value.description)
        let k = digits.count
        // Steps 6–10.
        if k <= n && n <= 21 {
            return digits + String(repeating: "0", count: n - k)
        }
        if 0 < n && n <= 21 {
            return String(digits.prefix(n)) + "." + String(digits.dropFirst(n))
        }
        if -6 < n && n <= 0 {
            return "0." + String(repeating: "0", count: -n) + digits
        }
        let exponent = n - 1
        let sign = exponent < 0 ? "-" : "+"
        let mantissa = k == 1 ? digits : String(digits.prefix(1)) + "." + String(digits.dropFirst(1))
        return mantissa + "e" + sign + String(abs(exponent))
    }

    /// The significant digits of a positive, finite Swift description ("5000.0", "1e-07", "1.5e+300") and the
    /// position n of the decimal point relative to them.
    private static func decimalDigits(of description: String) -> (digits: String, n: Int) {
        let parts = description.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integerPart = mantissa[0]
        let fractionPart = mantissa.count == 2 ? mantissa[1] : ""
        var digits = Substring(integerPart + fractionPart)
        var n = integerPart.count + exponent
        while digits.first == "0" {
            digits = digits.dropFirst()
            n -= 1
        }
        while digits.last == "0" {
            digits = digits.dropLast()
        }
        return (String(digits), n)
    }
}
