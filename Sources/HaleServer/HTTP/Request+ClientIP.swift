import NIOCore
import Vapor

/// Finds each request's client address once, before anything else runs: the peer that connected, or, when that peer
/// is one of `server.trustedProxies`, the client its `X-Forwarded-For` names (`TrustedProxies.client`).
struct ClientAddressMiddleware: AsyncMiddleware {
    let proxies: TrustedProxies
    /// The warning about a proxy missing from `server.trustedProxies`, given once.
    let untrustedProxyWarning: UntrustedProxyWarning

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        request.storage[ClientAddressKey.self] = clientAddress(of: request)
        return try await next.respond(to: request)
    }

    private func clientAddress(of request: Request) -> IPAddress? {
        guard let peer = request.remoteAddress.flatMap(IPAddress.init(socketAddress:)) else { return nil }
        let forwardedFor = request.headers[.xForwardedFor]
        untrustedProxyWarning.check(
            peer: peer, forwarding: !forwardedFor.isEmpty, trusted: proxies.contains(peer), logger: request.logger)
        return proxies.client(peer: peer, forwardedFor: forwardedFor)
    }
}

private struct ClientAddressKey: StorageKey {
    typealias Value = IPAddress
}

extension Request {
    /// The client's address, as `ClientAddressMiddleware` found it. `nil` only for a request that came through no
    /// socket, as in-process tests send them.
    var clientAddress: IPAddress? {
        storage[ClientAddressKey.self]
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
