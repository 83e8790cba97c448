import CBOR
import Crypto
import HaleClient
import Testing

@testable import WebAuthn

@Suite("COSE keys")
struct COSEKeyTests {
    private let passkey = SoftwarePasskey()

    private func p256Key(_ key: COSEKey) -> P256.Signing.PublicKey? {
        if case .p256(let inner) = key { inner } else { nil }
    }

    @Test("the canonical ES256 layout reads to the same key as the generic decoder")
    func canonicalLayout() throws {
        let bytes = CBOREncoder().encode(passkey.coseKey)
        #expect(bytes.count == 77)
        let fast = try #require(p256Key(try COSEKey(bytes: bytes)))
        let generic = try #require(p256Key(try COSEKey(passkey.coseKey)))
        #expect(fast.x963Representation == generic.x963Representation)
    }

    @Test("the same key in another member order takes the generic path and still reads")
    func otherOrder() throws {
        guard case .map(let entries) = passkey.coseKey else { Issue.record("not a map"); return }
        let reordered = CBOREncoder().encode(.map(entries.reversed()))
        #expect(reordered.count == 77)
        let key = try #require(p256Key(try COSEKey(bytes: reordered)))
        let canonical = try #require(p256Key(try COSEKey(bytes: CBOREncoder().encode(passkey.coseKey))))
        #expect(key.x963Representation == canonical.x963Representation)
    }

    @Test("a canonical layout whose point is off the curve is refused")
    func offCurve() {
        var bytes = CBOREncoder().encode(passkey.coseKey)
        bytes[76] ^= 0x01
        #expect(throws: WebAuthnError(.invalidPublicKey, "")) { try COSEKey(bytes: bytes) }
    }

    @Test("a canonical layout with another curve is not taken for P-256")
    func otherCurve() {
        var bytes = CBOREncoder().encode(passkey.coseKey)
        bytes[6] = 0x02
        #expect(throws: WebAuthnError(.invalidPublicKey, "")) { try COSEKey(bytes: bytes) }
    }
}
