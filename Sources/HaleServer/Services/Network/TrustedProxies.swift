import Foundation

/// The reverse proxies whose `X-Forwarded-For` is believed (`server.trustedProxies`), and the rule that finds the
/// client behind them.
///
/// Each proxy appends the address of the peer it received the request from, so the header's right end is written
/// by trusted proxies and everything left of the first untrusted address is the client's to forge. The client is
/// therefore the rightmost address that is not a trusted proxy, read only when the peer itself is one. RFC 7239's
/// `Forwarded` header is not read: a proxy that writes only one of the two would leave the other to the client.
public struct TrustedProxies: Sendable {
    /// The trusted ranges.
    public let networks: [IPNetwork]

    /// No trusted proxies: the client is always the peer.
    public init() {
        networks = []
    }

    /// Parses addresses and CIDR ranges; throws naming the first that is neither.
    public init(_ entries: [String]) throws {
        networks = try entries.map { entry in
            guard let network = IPNetwork(entry) else {
                throw ConfigError(
                    "server.trustedProxies entries must be IP addresses or CIDR ranges such as 10.0.0.0/8, not \"\(entry)\""
                )
            }
            return network
        }
    }

    /// Whether `address` is a trusted proxy.
    public func contains(_ address: IPAddress) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// The client of a request from `peer` carrying these `X-Forwarded-For` values, in the order received: the peer
    /// unless it is trusted; then the rightmost forwarded address that is not trusted, or the leftmost if all are.
    /// A header that is absent, empty or has an entry that is not an address, met before the client, leaves the peer.
    public func client(peer: IPAddress, forwardedFor values: [String]) -> IPAddress {
        guard contains(peer), !values.isEmpty else { return peer }
        var client = peer
        for entry in values.joined(separator: ",").split(separator: ",", omittingEmptySubsequences: false).reversed() {
            guard let address = Self.forwardedAddress(entry) else { return peer }
            client = address
            if !contains(address) { return address }
        }
        return client
    }

    /// One `X-Forwarded-For` entry: an address, optionally with a port as some proxies write it (`203.0.113.7:4711`,
    /// `[2001:db8::1]:4711`), or a bracketed IPv6 address.
    static func forwardedAddress(_ entry: Substring) -> IPAddress? {
        let entry = entry.trimmingCharacters(in: [" ", "\t"])
        if entry.hasPrefix("["), let close = entry.firstIndex(of: "]") {
            let rest = entry[entry.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && isPort(rest.dropFirst())) else { return nil }
            let inside = entry[entry.index(after: entry.startIndex)..<close]
            return inside.contains(":") ? IPAddress(inside) : nil
        }
        let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard isPort(parts[1]), let address = IPAddress(parts[0]), address.isIPv4 else { return nil }
            return address
        }
        return IPAddress(entry)
    }

    private static func isPort(_ text: Substring) -> Bool {
        (1...5).contains(text.count) && text.allSatisfy { ("0"..."9").contains($0) }
    }
}
