import Foundation
import HaleTesting
import Testing
import WebAuthn

@testable import HaleServer

@Suite("Opaque tokens and encodings")
struct OpaqueTokenTests {
    @Test func tokensCarry256RandomBitsInBase64URL() {
        let token = OpaqueToken.generate()
        #expect(token.count == 43)
        #expect(Base64URL.decode(token)?.count == 32)
        #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(OpaqueToken.generate() != token)
    }

    @Test func hashIsHexSHA256() {
        #expect(OpaqueToken.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func constantTimeComparison() {
        #expect(OpaqueToken.constantTimeEquals("same", "same"))
        #expect(!OpaqueToken.constantTimeEquals("same", "sane"))
        #expect(!OpaqueToken.constantTimeEquals("same", "same!"))
    }

    @Test func base64URLWithOrWithoutPadding() {
        #expect(Base64URL.decode("YQ") == Data("a".utf8))
        #expect(Base64URL.decode("YQ==") == Data("a".utf8))
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]))
        #expect(Base64URL.decode("not base64!") == nil)
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }
}

@Suite("Hex")
struct HexTests {
    @Test("every byte encodes as String(format:) writes it")
    func matchesFormat() {
        let bytes = (0...255).map { UInt8($0) }
        #expect(Hex.encode(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        #expect(Hex.encode([]) == "")
    }
}
