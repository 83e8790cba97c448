#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The network an address belongs to, coarse enough to stay stable for one user and say little about them: the /24
/// of an IPv4 address, the /48 of an IPv6 address.
enum IPRange {
    /// `203.0.113.0/24` or `2001:db8:1::/48`; `nil` for anything that is not an IP address.
    static func of(_ address: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let octets = withUnsafeBytes(of: &v4) { Array($0) }
            return "\(octets[0]).\(octets[1]).\(octets[2]).0/24"
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            let groups = stride(from: 0, to: 6, by: 2).map {
                String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
            }
            return groups.joined(separator: ":") + "::/48"
        }
        return nil
    }
}
