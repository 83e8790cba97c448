/// A range of addresses in CIDR notation, such as `10.0.0.0/8` or `2001:db8::/32`; an address alone is a range of one.
public struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    /// The first address of the range.
    let base: IPAddress
    /// The prefix length over all 128 bits: an IPv4 range's is 96 more than written.
    let prefixLength: Int
    /// The range as written in configuration.
    public let description: String

    /// Parses `ADDRESS` or `ADDRESS/LENGTH`. A range whose address has bits set past its prefix, such as
    /// `10.0.0.1/8`, is refused: it is more likely a mistake than a way to write `10.0.0.0/8`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var length = width
        if parts.count == 2 {
            guard parts[1].allSatisfy({ ("0"..."9").contains($0) }), let written = Int(parts[1]),
                (0...width).contains(written)
            else {
                return nil
            }
            length = written
        }
        prefixLength = length + 128 - width
        base = address.masked(to: prefixLength)
        guard base == address else { return nil }
        description = text
    }

    /// Whether `address` is in the range.
    public func contains(_ address: IPAddress) -> Bool {
        address.masked(to: prefixLength) == base
    }
}
