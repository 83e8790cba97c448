import CBOR
import Testing

@Suite("Encoder")
struct CBOREncoderTests {
    @Test("heads switch width exactly at the boundaries")
    func headBoundaries() {
        let pairs: [(CBORValue, String)] = [
            (.unsignedInteger(23), "17"),
            (.unsignedInteger(24), "1818"),
            (.unsignedInteger(255), "18ff"),
            (.unsignedInteger(256), "190100"),
            (.unsignedInteger(65535), "19ffff"),
            (.unsignedInteger(65536), "1a00010000"),
            (.unsignedInteger(4_294_967_295), "1affffffff"),
            (.unsignedInteger(4_294_967_296), "1b0000000100000000"),
            (.negativeInteger(23), "37"),
            (.negativeInteger(24), "3818"),
            (.byteString(sampleBytes(24)), "5818" + sampleBytes(24).hex),
            (.tagged(24, 0), "d81800"),
        ]
        for (value, hex) in pairs {
            #expect(CBOREncoder().encode(value).hex == hex)
        }
    }

    @Test("integer initialiser covers the whole Int64 range")
    func integerInitialiser() {
        #expect(CBORValue(0) == .unsignedInteger(0))
        #expect(CBORValue(-1) == .negativeInteger(0))
        #expect(CBORValue(Int64.max) == .unsignedInteger(UInt64(Int64.max)))
        #expect(CBORValue(Int64.min) == .negativeInteger(UInt64(Int64.max)))
        #expect(CBORValue(Int64.min).int == Int64.min)
    }

    @Test("floats use the narrowest exact width")
    func floatWidths() {
        let pairs: [(Double, String)] = [
            (0.5, "f93800"),
            (65505.0, "fa477fe100"),
            (1.0 / 3.0, "fb3fd5555555555555"),
            (0x1p-25, "fa33000000"),
            (3 * 0x1p-24, "f90003"),
            // In half precision's subnormal range but between two of its values: single precision, not rounded.
            (1.5 * 0x1p-24, "fa33c00000"),
            (0x1p-14 + 0x1p-24, "f90401"),
            (Double(Float.leastNonzeroMagnitude), "fa00000001"),
            (-.nan, "f97e00"),
        ]
        for (number, hex) in pairs {
            #expect(CBOREncoder().encode(.float(number)).hex == hex, "\(number)")
        }
    }

    @Test("canonicalMapOrder sorts by major type, then encoded length, then bytes")
    func canonicalMapOrder() {
        let keys: [CBORValue] = [false, [100], [-1], "aa", "z", -1, 100, 10]
        let entries = keys.enumerated().map { CBORMapEntry(key: $0.element, value: CBORValue(Int64($0.offset))) }
        let sorted = CBOREncoder.canonicalMapOrder(entries).map(\.key)
        #expect(sorted == [10, 100, -1, "z", "aa", [-1], [100], false])
    }

    @Test("canonicalMapOrder puts a shuffled COSE key into CTAP2 order")
    func canonicalCOSEOrder() {
        let shuffled: CBORValue = [-3: "y", 3: -7, -1: 1, 1: 2, -2: "x"]
        let ordered = CBOREncoder.canonicalMapOrder(shuffled.mapEntries ?? [])
        #expect(ordered.map(\.key) == [1, 3, -1, -2, -3])
        #expect(CBOREncoder().encode(.map(ordered)).hex == "a5010203262001216178226179")
    }

    @Test("map order is kept as given by both encoder and decoder")
    func mapOrderIsPreserved() throws {
        let value: CBORValue = ["b": 1, "a": 2]
        let encoded = CBOREncoder().encode(value)
        #expect(encoded.hex == "a2616201616102")
        #expect(try CBORDecoder().decode(encoded).mapEntries?.map(\.key) == ["b", "a"])
    }
}
