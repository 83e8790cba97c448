import Logging
import Synchronization

/// Warns once per process when a private address that is not a trusted proxy sends `X-Forwarded-For`: that is most
/// likely a reverse proxy missing from `server.trustedProxies`, behind which every client shares one budget.
final class UntrustedProxyWarning: Sendable {
    private let warned = Atomic(false)

    /// Loopback, private and link-local ranges: where a proxy in front of Hale usually is.
    private static let privateRanges = [
        "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16", "::1",
        "fc00::/7", "fe80::/10",
    ].compactMap(IPNetwork.init)

    /// Logs the warning the first time a private `peer` forwards for someone while not trusted.
    func check(peer: IPAddress, forwarding: Bool, trusted: Bool, logger: Logger) {
        guard forwarding, !trusted, Self.privateRanges.contains(where: { $0.contains(peer) }),
            !warned.exchange(true, ordering: .relaxed)
        else { return }
        logger.warning(
            "X-Forwarded-For from \(peer), which is not in server.trustedProxies: if it is a reverse proxy, every client behind it shares one request budget"
        )
    }
}
