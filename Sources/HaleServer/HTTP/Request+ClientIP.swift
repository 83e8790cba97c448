import NIOCore
import Vapor

extension Request {
    /// The client's address: the peer that connected, or, when that peer is one of `server.trustedProxies`, the
    /// client its `X-Forwarded-For` names (`TrustedProxies.client`). `nil` only for a request that came through no
    /// socket, as in-process tests send them.
    var clientAddress: IPAddress? {
        guard let peer = remoteAddress.flatMap(IPAddress.init(socketAddress:)) else { return nil }
        let proxies = hale.configuration.server.trustedProxies
        let forwardedFor = headers[.xForwardedFor]
        hale.untrustedProxyWarning.check(
            peer: peer, forwarding: !forwardedFor.isEmpty, trusted: proxies.contains(peer), logger: logger)
        return proxies.client(peer: peer, forwardedFor: forwardedFor)
    }

    /// The client's address as text, as the audit trail records its range.
    var clientIP: String? {
        clientAddress?.description
    }

    /// The network the client is counted by: its IPv4 address, or its IPv6 /64.
    var clientNetwork: ClientNetwork? {
        clientAddress.map(ClientNetwork.init)
    }
}

extension IPAddress {
    /// The address of an IPv4 or IPv6 socket address; `nil` for a Unix domain socket.
    init?(socketAddress: SocketAddress) {
        switch socketAddress {
        case .v4(let address):
            var bytes = address.address.sin_addr
            self.init(ipv4: withUnsafeBytes(of: &bytes) { Array($0) })
        case .v6(let address):
            var bytes = address.address.sin6_addr
            self.init(ipv6: withUnsafeBytes(of: &bytes) { Array($0) })
        case .unixDomainSocket:
            return nil
        }
    }
}
