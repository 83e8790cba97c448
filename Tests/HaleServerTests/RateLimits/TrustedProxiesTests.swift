import Foundation
import Testing

@testable import HaleServer

/// Who the client is behind `server.trustedProxies`: the rightmost `X-Forwarded-For` address that is not a trusted
/// proxy, read only when the peer is one.
@Suite("Client address: X-Forwarded-For behind trusted proxies")
struct TrustedProxiesTests {
    private let proxies: TrustedProxies
    private let proxy = TrustedProxiesTests.address("10.0.0.2")

    init() throws {
        proxies = try TrustedProxies(["10.0.0.0/8", "2001:db8:ffff::/48"])
    }

    private static func address(_ text: String) -> IPAddress {
        guard let address = IPAddress(text) else { preconditionFailure("\(text) is an address") }
        return address
    }

    private func client(peer: IPAddress, _ header: String...) -> String {
        proxies.client(peer: peer, forwardedFor: header).description
    }

    @Test("without trusted proxies the header is ignored")
    func noneTrusted() {
        #expect(TrustedProxies().client(peer: proxy, forwardedFor: ["198.51.100.7"]) == proxy)
    }

    @Test("a peer that is not a trusted proxy is the client, whatever it forwards")
    func untrustedPeerForges() {
        #expect(client(peer: Self.address("203.0.113.9"), "198.51.100.7") == "203.0.113.9")
    }

    @Test("behind a trusted proxy, the address it forwarded is the client")
    func oneProxy() {
        #expect(client(peer: proxy, "198.51.100.7") == "198.51.100.7")
    }

    @Test("what the client wrote left of the proxy's entry is never believed")
    func clientForgesToTheLeft() {
        #expect(client(peer: proxy, "192.0.2.1, 198.51.100.7") == "198.51.100.7")
    }

    @Test("a client claiming to be a trusted proxy is still the address the proxy saw")
    func clientClaimsToBeAProxy() {
        #expect(client(peer: proxy, "10.0.0.9, 198.51.100.7") == "198.51.100.7")
    }

    @Test("trusted hops on the right are skipped")
    func proxyChain() {
        #expect(client(peer: proxy, "192.0.2.1, 198.51.100.7, 10.1.2.3, 10.0.0.3") == "198.51.100.7")
    }

    @Test("when every hop is trusted, the leftmost is the client")
    func allTrusted() {
        #expect(client(peer: proxy, "10.9.9.9, 10.1.2.3") == "10.9.9.9")
    }

    @Test("several header lines are one list, in the order received")
    func severalLines() {
        #expect(client(peer: proxy, "192.0.2.1", "198.51.100.7, 10.1.2.3") == "198.51.100.7")
    }

    @Test("no header, or an empty one, leaves the peer")
    func absent() {
        #expect(proxies.client(peer: proxy, forwardedFor: []) == proxy)
        #expect(client(peer: proxy, "") == "10.0.0.2")
    }

    @Test(
        "a malformed entry met before the client leaves the peer",
        arguments: [
            "unknown", "198.51.100.7,", "198.51.100.7, , 10.1.2.3", "198.51.100.7 10.1.2.3", "198.51.100.7;10.1.2.3",
            "_hidden", "2001:db8::1%eth0", "[198.51.100.7]", "[2001:db8::1", "[2001:db8::1]:", "198.51.100.7:99999x",
            "198.51.100.7:", "2001:db8::/64",
        ])
    func malformed(header: String) {
        #expect(client(peer: proxy, header) == "10.0.0.2")
    }

    @Test("a malformed entry left of the client is never read")
    func malformedToTheLeft() {
        #expect(client(peer: proxy, "not an address, 198.51.100.7") == "198.51.100.7")
    }

    @Test(
        "ports and brackets as proxies write them are read",
        arguments: [
            ("198.51.100.7:4711", "198.51.100.7"), ("[2001:db8:1::7]:4711", "2001:db8:1::7"),
            ("[2001:db8:1::7]", "2001:db8:1::7"), (" 2001:db8:1::7 ", "2001:db8:1::7"),
            ("\t198.51.100.7", "198.51.100.7"),
        ])
    func portsAndBrackets(header: String, expected: String) {
        #expect(client(peer: proxy, header) == expected)
    }

    @Test("an IPv6 proxy is trusted by its range, and an IPv4-mapped peer by its IPv4 range")
    func ipv6Proxy() {
        #expect(client(peer: Self.address("2001:db8:ffff:1::2"), "2001:db8:1::7") == "2001:db8:1::7")
        #expect(client(peer: Self.address("::ffff:10.0.0.2"), "198.51.100.7") == "198.51.100.7")
        #expect(client(peer: Self.address("2001:db8:fffe::2"), "198.51.100.7") == "2001:db8:fffe::2")
    }

    @Test("a private peer forwarding for clients without being trusted is warned about, once")
    func untrustedProxyWarning() {
        let capture = LogCapture()
        let warning = UntrustedProxyWarning()
        let logger = capture.logger()
        warning.check(peer: Self.address("203.0.113.9"), forwarding: true, trusted: false, logger: logger)
        warning.check(peer: proxy, forwarding: false, trusted: false, logger: logger)
        warning.check(peer: proxy, forwarding: true, trusted: true, logger: logger)
        #expect(capture.text.isEmpty)
        warning.check(peer: proxy, forwarding: true, trusted: false, logger: logger)
        warning.check(peer: Self.address("fd00::2"), forwarding: true, trusted: false, logger: logger)
        #expect(capture.text.components(separatedBy: "\n").count == 1)
        #expect(capture.text.hasPrefix("warning X-Forwarded-For from 10.0.0.2, which is not in server.trustedProxies"))
    }
}
