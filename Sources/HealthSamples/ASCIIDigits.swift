/// Fixed-width decimal fields of dates and times, read from their bytes.
public enum ASCIIDigits {
    /// The value of `digits`, or nil unless every byte is `0`–`9`. Callers slice fixed widths; more than 18 digits,
    /// which could overflow, is nil too.
    public static func value(_ digits: ArraySlice<UInt8>) -> Int? {
        guard digits.count <= 18, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
