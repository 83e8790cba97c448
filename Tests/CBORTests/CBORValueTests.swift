import CBOR
import Testing

@Suite("CBORValue")
struct CBORValueTests {
    static let sample: CBORValue = [
        1: "one", -2: .byteString([0xde, 0xad]), "list": [1, 2], "map": ["k": .null], .byteString([1]): true,
    ]

    @Test("map subscripts look up by CBOR key, text key and integer key")
    func subscripts() {
        #expect(Self.sample[1]?.text == "one")
        #expect(Self.sample[-2]?.bytes == [0xde, 0xad])
        #expect(Self.sample["list"]?.array == [1, 2])
        #expect(Self.sample["map"]?["k"] == .null)
        #expect(Self.sample[.byteString([1])] == true)
        #expect(Self.sample[2] == nil)
        #expect(Self.sample["missing"] == nil)
        #expect(CBORValue.array([1, 2])[0] == nil)
        #expect(CBORValue.textString("one")["one"] == nil)
    }

    @Test("typed accessors return nil for other kinds")
    func accessors() {
        let text: CBORValue = "t"
        #expect(text.text == "t")
        #expect(text.bytes == nil)
        #expect(text.int == nil)
        #expect(text.array == nil)
        #expect(text.mapEntries == nil)
        #expect(CBORValue.byteString([]).text == nil)
        #expect(CBORValue.float(1).int == nil)
        #expect(CBORValue.negativeInteger(UInt64(Int64.max)).int == Int64.min)
        #expect(CBORValue.negativeInteger(UInt64(Int64.max) + 1).int == nil)
        #expect(CBORValue.unsignedInteger(UInt64(Int64.max)).int == Int64.max)
        #expect(Self.sample.mapEntries?.count == 5)
    }

    @Test("equality is structural: UTF-8 bytes for text, bit patterns for floats, order for maps")
    func structuralEquality() throws {
        #expect(CBORValue.float(.nan) == .float(.nan))
        #expect(CBORValue.float(0.0) != .float(-0.0))
        #expect(CBORValue.unsignedInteger(1) != .negativeInteger(1))
        #expect(CBORValue.unsignedInteger(1) != .float(1))
        #expect(CBORValue.textString("\u{e9}") != .textString("e\u{301}"))
        #expect(["a": 1, "b": 2] != (["b": 2, "a": 1] as CBORValue))
        #expect(Set<CBORValue>([.float(.nan), .float(.nan), "\u{e9}", "e\u{301}"]).count == 3)
        // Canonically equivalent but distinct text keys are not duplicates.
        let map = try CBORDecoder().decode([UInt8](hex: "a2" + "62c3a9" + "01" + "6365cc81" + "02"))
        #expect(map["\u{e9}"] == 1)
        #expect(map.mapEntries?.count == 2)
    }

    @Test("decode accepts any byte collection, with offsets relative to its start")
    func collectionInput() throws {
        let buffer = [UInt8](hex: "ffff" + "8201" + "02" + "03")
        let slice = buffer[2...]
        #expect(try CBORDecoder().decodePrefix(slice) == ([1, 2], 3))
        #expect(throws: CBORError(.trailingBytes, offset: 3)) { try CBORDecoder().decode(slice) }
        #expect(try CBORDecoder().decode(buffer[2..<5]) == [1, 2])
        #expect(try CBORDecoder().decode(ContiguousArray([0x18, 0x2a])) == 42)
    }

    @Test("errors have stable, distinct codes and readable descriptions")
    func errorDescriptions() {
        let codes: [CBORError.Code] = [
            .truncated, .trailingBytes, .indefiniteLength, .reservedAdditionalInfo, .invalidUTF8,
            .depthLimitExceeded, .lengthLimitExceeded, .duplicateMapKey, .unexpectedBreak,
            .unsupportedSimpleValue, .inputTooLarge,
        ]
        #expect(Set(codes).count == codes.count)
        #expect(CBORError.Code.duplicateMapKey.description == "duplicateMapKey")
        let error = CBORError(.truncated, offset: 3)
        #expect(error.description == "CBOR truncated at byte 3: input ended inside a data item")
        #expect(error != CBORError(.truncated, offset: 4))
    }
}
