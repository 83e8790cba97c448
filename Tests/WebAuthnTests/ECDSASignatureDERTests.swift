import Crypto
import Testing

@testable import WebAuthn

@Suite("ECDSA signatures in DER")
struct ECDSASignatureDERTests {
    @Test("real signatures read to the same r ‖ s as BoringSSL reads them")
    func matchesBoringSSL() throws {
        let key = P256.Signing.PrivateKey()
        for index in 0..<200 {
            let signature = try key.signature(for: [UInt8(index % 256)])
            let der = Array(signature.derRepresentation)
            #expect(ECDSASignatureDER.rawP256(der) == Array(signature.rawRepresentation))
        }
    }

    @Test("a leading zero keeps a high bit from reading as negative")
    func positiveHighBit() {
        let r = [0x00, 0x80] + [UInt8](repeating: 1, count: 31)
        let der = [0x30, 0x26, 0x02, 0x21] + r + [0x02, 0x01, 0x05]
        #expect(ECDSASignatureDER.rawP256(der) == Array(r.dropFirst()) + [UInt8](repeating: 0, count: 31) + [5])
    }

    @Test(
        "non-DER and out-of-range encodings are refused",
        arguments: [
            ("not a sequence", [0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]),
            ("wrong outer length", [0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]),
            ("trailing byte", [0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00]),
            ("not an integer", [0x30, 0x06, 0x04, 0x01, 0x01, 0x02, 0x01, 0x01]),
            ("empty integer", [0x30, 0x05, 0x02, 0x00, 0x02, 0x01, 0x01]),
            ("negative", [0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x01]),
            ("non-minimal zero", [0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01]),
            ("one integer", [0x30, 0x03, 0x02, 0x01, 0x01]),
            ("too short", [0x30, 0x00]),
        ] as [(String, [UInt8])])
    func refused(reason: String, der: [UInt8]) {
        #expect(ECDSASignatureDER.rawP256(der) == nil, "\(reason)")
    }

    @Test("an integer wider than 32 bytes is refused")
    func tooWide() {
        let r = [0x01] + [UInt8](repeating: 1, count: 32)
        #expect(ECDSASignatureDER.rawP256([0x30, 0x26, 0x02, 0x21] + r + [0x02, 0x01, 0x05]) == nil)
    }
}
