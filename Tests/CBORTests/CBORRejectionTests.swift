import CBOR
import Testing

/// One test per rejection reason, each checking the error code and offset.
@Suite("Rejections")
struct CBORRejectionTests {
    @Test("truncated input")
    func truncated() {
        expectRejection("", .truncated, at: 0)
        expectRejection("19", .truncated, at: 0)
        expectRejection("1901", .truncated, at: 0)
        expectRejection("1b00000000000000", .truncated, at: 0)
        expectRejection("44010203", .truncated, at: 0)
        expectRejection("62c3", .truncated, at: 0)
        expectRejection("830102", .truncated, at: 0)
        expectRejection("820181", .truncated, at: 2)
        expectRejection("a20102", .truncated, at: 0)
        expectRejection("a1", .truncated, at: 0)
        expectRejection("c1", .truncated, at: 1)
        expectRejection("f93c", .truncated, at: 0)
        expectRejection("8118", .truncated, at: 1)
    }

    @Test("trailing bytes after the item")
    func trailingBytes() {
        expectRejection("0102", .trailingBytes, at: 1)
        expectRejection("a0ff", .trailingBytes, at: 1)
        expectRejection("4101" + "00", .trailingBytes, at: 2)
    }

    @Test("indefinite-length strings, arrays and maps")
    func indefiniteLength() {
        expectRejection("5f4101ff", .indefiniteLength, at: 0)
        expectRejection("7f6161ff", .indefiniteLength, at: 0)
        expectRejection("9fff", .indefiniteLength, at: 0)
        expectRejection("bfff", .indefiniteLength, at: 0)
        expectRejection("a101" + "9fff", .indefiniteLength, at: 2)
    }

    @Test("reserved additional information 28-30, and 31 where no indefinite form exists")
    func reservedAdditionalInfo() {
        for major in 0..<8 {
            for info in 28...30 {
                let byte = [UInt8(major << 5 | info)]
                expectRejection(byte.hex, .reservedAdditionalInfo, at: 0)
            }
        }
        expectRejection("1f", .reservedAdditionalInfo, at: 0)
        expectRejection("3f", .reservedAdditionalInfo, at: 0)
        expectRejection("df", .reservedAdditionalInfo, at: 0)
        expectRejection("81" + "1c", .reservedAdditionalInfo, at: 1)
    }

    @Test("invalid UTF-8 in text strings")
    func invalidUTF8() {
        expectRejection("61ff", .invalidUTF8, at: 0)
        expectRejection("62c328", .invalidUTF8, at: 0)
        expectRejection("62c080", .invalidUTF8, at: 0)  // overlong encoding of U+0000
        expectRejection("63eda080", .invalidUTF8, at: 0)  // UTF-16 surrogate U+D800
        expectRejection("64f4908080", .invalidUTF8, at: 0)  // above U+10FFFF
        expectRejection("826161" + "61c3", .invalidUTF8, at: 3)
    }

    @Test("nesting deeper than maximumDepth")
    func depthLimitExceeded() throws {
        let sixteen = [UInt8](repeating: 0x81, count: 15) + [0x80]
        #expect(try CBORDecoder().decode(sixteen) == (0..<15).reduce(CBORValue.array([])) { inner, _ in [inner] })
        expectRejection("81" + sixteen.hex, .depthLimitExceeded, at: 16)
        expectRejection("a1" + "01" + sixteen.hex, .depthLimitExceeded, at: 17)
        let shallow = CBORDecoder(maximumDepth: 2)
        expectRejection("818180", .depthLimitExceeded, at: 2, decoder: shallow)
        expectRejection("c1c1c101", .depthLimitExceeded, at: 2, decoder: shallow)
        expectRejection("81a1018100", .depthLimitExceeded, at: 3, decoder: shallow)
        #expect(try shallow.decode([UInt8](hex: "81c101")) == [.tagged(1, 1)])
        #expect(try CBORDecoder(maximumDepth: 0).decode([UInt8](hex: "01")) == 1)
        expectRejection("80", .depthLimitExceeded, at: 0, decoder: CBORDecoder(maximumDepth: 0))
    }

    @Test("string lengths and element counts over maximumLength")
    func lengthLimitExceeded() throws {
        let small = CBORDecoder(maximumLength: 4)
        #expect(try small.decode([UInt8](hex: "4401020304")) == .byteString([1, 2, 3, 4]))
        expectRejection("450102030405", .lengthLimitExceeded, at: 0, decoder: small)
        expectRejection("656162636465", .lengthLimitExceeded, at: 0, decoder: small)
        expectRejection("850102030405", .lengthLimitExceeded, at: 0, decoder: small)
        expectRejection("a5" + "0000010102020303" + "0404", .lengthLimitExceeded, at: 0, decoder: small)
        expectRejection("8145" + "0102030405", .lengthLimitExceeded, at: 1, decoder: small)
        // Huge declared sizes fail on the limit before any allocation happens.
        expectRejection("5bffffffffffffffff", .lengthLimitExceeded, at: 0)
        expectRejection("9bffffffffffffffff", .lengthLimitExceeded, at: 0)
        expectRejection("ba00100001", .lengthLimitExceeded, at: 0)
        // Within the limit but larger than the remaining input: truncated, again before allocating.
        expectRejection("9a000fffff", .truncated, at: 0)
    }

    @Test("duplicate map keys")
    func duplicateMapKey() {
        expectRejection("a2" + "0102" + "0103", .duplicateMapKey, at: 3)
        expectRejection("a3" + "616101" + "616202" + "616103", .duplicateMapKey, at: 7)
        expectRejection("a2" + "1801" + "02" + "0103", .duplicateMapKey, at: 4)  // 0x18 0x01 is 1 too
        expectRejection("a2" + "8101" + "00" + "8101" + "00", .duplicateMapKey, at: 4)
        expectRejection("81" + "a2" + "2001" + "2002", .duplicateMapKey, at: 4)
    }

    @Test("break byte outside an indefinite-length item")
    func unexpectedBreak() {
        expectRejection("ff", .unexpectedBreak, at: 0)
        expectRejection("81ff", .unexpectedBreak, at: 1)
        expectRejection("a1ff01", .unexpectedBreak, at: 1)
        expectRejection("a101ff", .unexpectedBreak, at: 2)
    }

    @Test("simple values outside false, true, null and undefined")
    func unsupportedSimpleValue() {
        expectRejection("e0", .unsupportedSimpleValue, at: 0)
        expectRejection("f0", .unsupportedSimpleValue, at: 0)
        expectRejection("f3", .unsupportedSimpleValue, at: 0)
        expectRejection("f820", .unsupportedSimpleValue, at: 0)
        expectRejection("f8ff", .unsupportedSimpleValue, at: 0)
        expectRejection("f814", .unsupportedSimpleValue, at: 0)  // two-byte form of false is ill-formed
        expectRejection("f8", .truncated, at: 0)
    }

    @Test("input larger than maximumInputSize")
    func inputTooLarge() throws {
        let capped = CBORDecoder(maximumInputSize: 5)
        #expect(try capped.decode([UInt8](hex: "4401020304")) == .byteString([1, 2, 3, 4]))
        expectRejection("450102030405", .inputTooLarge, at: 5, decoder: capped)
        #expect(throws: CBORError(.inputTooLarge, offset: 5)) {
            try capped.decodePrefix([UInt8](hex: "00010203040506"))
        }
    }

    @Test("non-shortest heads are accepted and re-encoded in shortest form")
    func nonShortestFormIsAccepted() throws {
        let pairs: [(String, CBORValue, String)] = [
            ("1800", 0, "00"),
            ("190017", 23, "17"),
            ("1a00000018", 24, "1818"),
            ("1b00000000000003e8", 1000, "1903e8"),
            ("3800", -1, "20"),
            ("580141", .byteString([0x41]), "4141"),
            ("790001" + "61", "a", "6161"),
            ("9800", [], "80"),
            ("b900010102", [1: 2], "a10102"),
            ("d80101", .tagged(1, 1), "c101"),
            ("fa3fc00000", 1.5, "f93e00"),
            ("fb3ff8000000000000", 1.5, "f93e00"),
        ]
        for (hex, expected, shortest) in pairs {
            let value = try CBORDecoder().decode([UInt8](hex: hex))
            #expect(value == expected, "\(hex)")
            #expect(CBOREncoder().encode(value).hex == shortest, "\(hex)")
        }
    }
}
