import CBOR
import Testing

/// Realistic shapes: a COSE EC2 P-256 key inside authenticator data, and a "none" attestation object.
@Suite("WebAuthn shapes")
struct CBORWebAuthnTests {
    static let x = sampleBytes(32, startingAt: 0x10)
    static let y = sampleBytes(32, startingAt: 0x80)

    /// COSE_Key for ES256: kty EC2 (1: 2), alg ES256 (3: -7), crv P-256 (-1: 1), x (-2), y (-3).
    static let coseKey: CBORValue = [1: 2, 3: -7, -1: 1, -2: .byteString(x), -3: .byteString(y)]

    /// Extensions map `{"credProtect": 2}` as it follows the credential key when the ED flag is set.
    static let extensions: CBORValue = ["credProtect": 2]

    @Test("COSE EC2 key encodes to the expected CTAP2 canonical bytes")
    func coseKeyEncoding() {
        let encoded = CBOREncoder().encode(Self.coseKey)
        let expectedPrefix = [UInt8](hex: "a5 0102 0326 2001 21 5820")
        #expect(encoded.count == 77)
        #expect(Array(encoded.prefix(expectedPrefix.count)) == expectedPrefix)
        #expect(Array(encoded[42..<45]) == [0x22, 0x58, 0x20])
        #expect(CBOREncoder.canonicalMapOrder(Self.coseKey.mapEntries ?? []) == Self.coseKey.mapEntries)
    }

    @Test("decodePrefix reads the COSE key and reports where extension bytes begin")
    func coseKeyFollowedByExtensions() throws {
        let keyBytes = CBOREncoder().encode(Self.coseKey)
        let extensionBytes = CBOREncoder().encode(Self.extensions)
        let (key, consumed) = try CBORDecoder().decodePrefix(keyBytes + extensionBytes)
        #expect(consumed == keyBytes.count)
        #expect(consumed == 77)
        #expect(key == Self.coseKey)
        #expect(key[1]?.int == 2)
        #expect(key[3]?.int == -7)
        #expect(key[-1]?.int == 1)
        #expect(key[-2]?.bytes == Self.x)
        #expect(key[-3]?.bytes == Self.y)
        let rest = (keyBytes + extensionBytes)[consumed...]
        #expect(try CBORDecoder().decode(rest)["credProtect"]?.int == 2)
        #expect(throws: CBORError(.trailingBytes, offset: 77)) {
            try CBORDecoder().decode(keyBytes + extensionBytes)
        }
    }

    @Test("attested credential data: the key is found at its offset inside authenticator data")
    func attestedCredentialData() throws {
        let credentialID = sampleBytes(16, startingAt: 0xc0)
        let authData = Self.authenticatorData(credentialID: credentialID, extensions: true)
        let keyOffset = 32 + 1 + 4 + 16 + 2 + credentialID.count
        let (key, consumed) = try CBORDecoder().decodePrefix(authData[keyOffset...])
        #expect(key[-2]?.bytes == Self.x)
        #expect(consumed == 77)
        let extensionOffset = keyOffset + consumed
        #expect(try CBORDecoder().decode(authData[extensionOffset...]) == Self.extensions)
    }

    @Test("\"none\" attestation object round-trips and exposes its fields")
    func noneAttestationObject() throws {
        let authData = Self.authenticatorData(credentialID: sampleBytes(16), extensions: false)
        let unordered: [CBORMapEntry] = [
            CBORMapEntry(key: "authData", value: .byteString(authData)),
            CBORMapEntry(key: "attStmt", value: [:]),
            CBORMapEntry(key: "fmt", value: "none"),
        ]
        let attestationObject = CBORValue.map(CBOREncoder.canonicalMapOrder(unordered))
        let encoded = CBOREncoder().encode(attestationObject)
        let expectedStart = "a3 63666d74 646e6f6e65 6761747453746d74 a0 68617574684461746158"
        #expect(encoded.hex.hasPrefix(expectedStart.filter { $0 != " " }))
        let decoded = try CBORDecoder().decode(encoded)
        #expect(decoded == attestationObject)
        #expect(decoded.mapEntries?.map(\.key.text) == ["fmt", "attStmt", "authData"])
        #expect(decoded["fmt"]?.text == "none")
        #expect(decoded["attStmt"]?.mapEntries?.isEmpty == true)
        #expect(decoded["authData"]?.bytes == authData)
        #expect(CBOREncoder().encode(decoded) == encoded)
    }

    /// rpIdHash ‖ flags ‖ signCount ‖ AAGUID ‖ credentialIdLength ‖ credentialId ‖ COSE key [‖ extensions].
    static func authenticatorData(credentialID: [UInt8], extensions: Bool) -> [UInt8] {
        let flags: UInt8 = extensions ? 0xc5 : 0x45  // UP, UV, AT (and ED)
        var data = sampleBytes(32, startingAt: 0x49) + [flags] + [0, 0, 0, 7] + [UInt8](repeating: 0, count: 16)
        data += [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID
        data += CBOREncoder().encode(coseKey)
        if extensions { data += CBOREncoder().encode(Self.extensions) }
        return data
    }
}
