#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as 128 bits. IPv4 addresses are held in their IPv4-mapped IPv6 form (`::ffff:a.b.c.d`),
/// so an address a dual-stack socket reports as mapped and the same address written as IPv4 are one address.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The first 64 bits, most significant first.
    let high: UInt64
    /// The last 64 bits.
    let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses an address written alone: `203.0.113.7` or `2001:db8::1`. No brackets, port, zone or prefix.
    public init?(_ text: some StringProtocol) {
        let text = String(text)
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(ipv4: withUnsafeBytes(of: &v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self.init(ipv6: withUnsafeBytes(of: &v6) { Array($0) })
    }

    /// The address of four network-order bytes.
    init(ipv4 bytes: [UInt8]) {
        high = 0
        low = 0xffff << 32 | bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The address of sixteen network-order bytes.
    init(ipv6 bytes: [UInt8]) {
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Whether this is an IPv4 address.
    public var isIPv4: Bool { high == 0 && low >> 32 == 0xffff }

    /// The address with every bit after the first `length` cleared.
    func masked(to length: Int) -> IPAddress {
        IPAddress(high: high & Self.mask(length), low: low & Self.mask(length - 64))
    }

    /// The first `length` of 64 bits set.
    private static func mask(_ length: Int) -> UInt64 {
        length <= 0 ? 0 : length >= 64 ? .max : ~(UInt64.max >> length)
    }

    /// `203.0.113.7`, or the RFC 5952 form of an IPv6 address, such as `2001:db8::1`.
    public var description: String {
        if isIPv4 {
            return (0..<4).map { String(low >> (24 - 8 * $0) & 0xff) }.joined(separator: ".")
        }
        var bytes = in6_addr()
        withUnsafeMutableBytes(of: &bytes) { buffer in
            for index in 0..<8 {
                buffer[index] = UInt8(high >> (56 - 8 * index) & 0xff)
                buffer[index + 8] = UInt8(low >> (56 - 8 * index) & 0xff)
            }
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count)) != nil else {
            preconditionFailure("inet_ntop writes any 16 bytes into INET6_ADDRSTRLEN characters")
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
