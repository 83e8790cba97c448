import Foundation
import Testing

@testable import HaleServer

@Suite("SecretBox")
struct SecretBoxTests {
    static let key = Data(repeating: 7, count: 32).base64EncodedString()

    @Test("a sealed secret opens with the same key and purpose, and only then")
    func roundTrip() throws {
        let box = try SecretBox(base64Key: Self.key, setting: "k")
        let sealed = try box.seal("r.apple-refresh-token", purpose: "apple-refresh-token")
        #expect(sealed.hasPrefix("v1."))
        #expect(!sealed.contains("apple-refresh-token"))
        #expect(box.open(sealed, purpose: "apple-refresh-token") == "r.apple-refresh-token")
        #expect(box.open(sealed, purpose: "other") == nil)
        let otherKey = try SecretBox(base64Key: Data(repeating: 8, count: 32).base64EncodedString(), setting: "k")
        #expect(otherKey.open(sealed, purpose: "apple-refresh-token") == nil)
    }

    @Test("an altered or malformed value does not open")
    func tampering() throws {
        let box = try SecretBox(base64Key: Self.key, setting: "k")
        var bytes = Array(try box.seal("secret", purpose: "p").utf8)
        bytes[10] = bytes[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(box.open(String(decoding: bytes, as: UTF8.self), purpose: "p") == nil)
        for malformed in ["", "v1.", "v2.AAAA", "v1.!!!", "secret"] {
            #expect(box.open(malformed, purpose: "p") == nil)
        }
    }

    @Test("two seals of one secret differ")
    func freshNonces() throws {
        let box = try SecretBox(base64Key: Self.key, setting: "k")
        #expect(try box.seal("s", purpose: "p") != box.seal("s", purpose: "p"))
    }

    @Test(
        "a key that is not 32 bytes of base64 is refused",
        arguments: ["", "short", Data(count: 16).base64EncodedString()])
    func badKeys(key: String) {
        #expect(throws: ConfigError.self) { try SecretBox(base64Key: key, setting: "k") }
    }
}
