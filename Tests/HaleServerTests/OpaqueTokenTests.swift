import ByteEncoding
import Foundation
import HaleTesting
import Testing
import WebAuthn

@testable import HaleServer

@Suite("Opaque tokens")
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

}
