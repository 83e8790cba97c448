/// The network a client is counted and locked out by: an IPv4 address itself, or the /64 of an IPv6 address.
///
/// An IPv6 /64 is one subscriber's link: a phone or a home router is handed a whole /64 and may use any address in
/// it, so counting single IPv6 addresses would let one client count as billions.
public struct ClientNetwork: Hashable, Sendable, CustomStringConvertible {
    /// The first address of the network.
    let base: IPAddress

    /// The network `address` belongs to.
    public init(_ address: IPAddress) {
        base = address.isIPv4 ? address : address.masked(to: 64)
    }

    /// `203.0.113.7`, or `2001:db8:1:2::/64`.
    public var description: String {
        base.isIPv4 ? base.description : "\(base)/64"
    }
}
