import Testing

@testable import HaleServer

/// Addresses, the networks clients are counted by, and the client behind trusted proxies.
@Suite("Client address: parsing and networks")
struct ClientAddressTests {
    @Test("IPv4 and IPv6 addresses parse and print in their canonical forms")
    func parsing() throws {
        #expect(try #require(IPAddress("203.0.113.7")).description == "203.0.113.7")
        #expect(try #require(IPAddress("2001:DB8:0:0::1")).description == "2001:db8::1")
        #expect(IPAddress("203.0.113.7")?.isIPv4 == true)
        #expect(IPAddress("2001:db8::1")?.isIPv4 == false)
    }

    @Test("an IPv4-mapped IPv6 address is the IPv4 address", arguments: ["::ffff:203.0.113.7", "::FFFF:cb00:7107"])
    func mapped(text: String) {
        #expect(IPAddress(text) == IPAddress("203.0.113.7"))
        #expect(IPAddress(text)?.description == "203.0.113.7")
    }

    @Test(
        "anything but an address alone is refused",
        arguments: [
            "", "unknown", "203.0.113", "203.0.113.256", " 203.0.113.7", "203.0.113.7:80", "[2001:db8::1]",
            "2001:db8::1%eth0", "2001:db8::/64", "2001:db8:::1",
        ])
    func refused(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test("an IPv4 client is counted by its address")
    func ipv4Network() throws {
        let network = ClientNetwork(try #require(IPAddress("203.0.113.7")))
        #expect(network.description == "203.0.113.7")
        #expect(network != ClientNetwork(try #require(IPAddress("203.0.113.8"))))
    }

    @Test("an IPv6 client is counted by its /64")
    func ipv6Network() throws {
        let network = ClientNetwork(try #require(IPAddress("2001:db8:1:2:aaaa:bbbb:cccc:dddd")))
        #expect(network.description == "2001:db8:1:2::/64")
        #expect(network == ClientNetwork(try #require(IPAddress("2001:db8:1:2::1"))))
        #expect(network != ClientNetwork(try #require(IPAddress("2001:db8:1:3::1"))))
    }

    @Test("an IPv4-mapped client is counted as the IPv4 address, not as a /64")
    func mappedNetwork() throws {
        let mapped = ClientNetwork(try #require(IPAddress("::ffff:203.0.113.7")))
        #expect(mapped == ClientNetwork(try #require(IPAddress("203.0.113.7"))))
        #expect(mapped != ClientNetwork(try #require(IPAddress("::ffff:203.0.113.8"))))
    }

    @Test("ranges contain what their prefix covers")
    func ranges() throws {
        let v4 = try #require(IPNetwork("10.0.0.0/8"))
        #expect(v4.contains(try #require(IPAddress("10.255.1.2"))))
        #expect(v4.contains(try #require(IPAddress("::ffff:10.0.0.1"))))
        #expect(!v4.contains(try #require(IPAddress("11.0.0.1"))))
        let v6 = try #require(IPNetwork("2001:db8::/32"))
        #expect(v6.contains(try #require(IPAddress("2001:db8:ffff::1"))))
        #expect(!v6.contains(try #require(IPAddress("2001:db9::1"))))
        let single = try #require(IPNetwork("192.0.2.1"))
        #expect(single.contains(try #require(IPAddress("192.0.2.1"))))
        #expect(!single.contains(try #require(IPAddress("192.0.2.2"))))
        let everything = try #require(IPNetwork("0.0.0.0/0"))
        #expect(everything.contains(try #require(IPAddress("198.51.100.1"))))
        #expect(!everything.contains(try #require(IPAddress("2001:db8::1"))))
    }

    @Test(
        "a malformed range is refused",
        arguments: ["10.0.0.0/33", "2001:db8::/129", "10.0.0.1/8", "10.0.0.0/", "10.0.0.0/+8", "10.0.0.0/8/8", "x/8"])
    func badRange(text: String) {
        #expect(IPNetwork(text) == nil)
    }

    @Test("a bad trusted proxy stops the configuration, naming it")
    func badTrustedProxy() {
        #expect(throws: ConfigError.self) { try TrustedProxies(["10.0.0.0/8", "proxy.internal"]) }
        #expect(throws: ConfigError.self) {
            try HaleConfiguration(ConfigValues(["server.trustedProxies": "10.0.0.0/8, 10.0.0.1/8"]))
        }
    }
}
