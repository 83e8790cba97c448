import CBOR
import Testing

/// The RFC 8949 Appendix A examples that fall inside the supported subset. Each vector is decoded and
/// compared with the expected value; canonical vectors are also re-encoded to the same bytes.
@Suite("RFC 8949 Appendix A")
struct RFC8949AppendixATests {
    static let integerVectors: [(String, CBORValue)] = [
        ("00", .unsignedInteger(0)),
        ("01", .unsignedInteger(1)),
        ("0a", .unsignedInteger(10)),
        ("17", .unsignedInteger(23)),
        ("1818", .unsignedInteger(24)),
        ("1819", .unsignedInteger(25)),
        ("1864", .unsignedInteger(100)),
        ("1903e8", .unsignedInteger(1000)),
        ("1a000f4240", .unsignedInteger(1_000_000)),
        ("1b000000e8d4a51000", .unsignedInteger(1_000_000_000_000)),
        ("1bffffffffffffffff", .unsignedInteger(18_446_744_073_709_551_615)),
        ("20", .negativeInteger(0)),
        ("29", .negativeInteger(9)),
        ("3863", .negativeInteger(99)),
        ("3903e7", .negativeInteger(999)),
        ("3bffffffffffffffff", .negativeInteger(UInt64.max)),
    ]

    @Test("integers", arguments: integerVectors)
    func integers(hex: String, expected: CBORValue) throws {
        #expect(try CBORDecoder().decode([UInt8](hex: hex)) == expected)
        #expect(CBOREncoder().encode(expected).hex == hex)
    }

    @Test("integer accessor gives the signed value")
    func signedIntegerValues() throws {
        let pairs: [(String, Int64?)] = [
            ("20", -1), ("29", -10), ("3863", -100), ("3903e7", -1000), ("1a000f4240", 1_000_000),
        ]
        for (hex, expected) in pairs {
            #expect(try CBORDecoder().decode([UInt8](hex: hex)).int == expected)
        }
        // -18446744073709551616 and 18446744073709551615 do not fit in Int64.
        #expect(try CBORDecoder().decode([UInt8](hex: "3bffffffffffffffff")).int == nil)
        #expect(try CBORDecoder().decode([UInt8](hex: "1bffffffffffffffff")).int == nil)
    }

    static let floatVectors: [(String, Double)] = [
        ("f90000", 0.0),
        ("f98000", -0.0),
        ("f93c00", 1.0),
        ("fb3ff199999999999a", 1.1),
        ("f93e00", 1.5),
        ("f97bff", 65504.0),
        ("fa47c35000", 100000.0),
        ("fa7f7fffff", 3.4028234663852886e+38),
        ("fb7e37e43c8800759c", 1.0e+300),
        ("f90001", 5.960464477539063e-8),
        ("f90400", 0.00006103515625),
        ("f9c400", -4.0),
        ("fbc010666666666666", -4.1),
        ("f97c00", .infinity),
        ("f97e00", .nan),
        ("f9fc00", -.infinity),
    ]

    @Test("canonical floats", arguments: floatVectors)
    func canonicalFloats(hex: String, expected: Double) throws {
        let value = try CBORDecoder().decode([UInt8](hex: hex))
        #expect(value == .float(expected))
        #expect(CBOREncoder().encode(value).hex == hex)
    }

    static let wideFloatsVectors: [(String, Double, String)] = [
        ("fa7f800000", .infinity, "f97c00"),
        ("fa7fc00000", .nan, "f97e00"),
        ("faff800000", -.infinity, "f9fc00"),
        ("fb7ff0000000000000", .infinity, "f97c00"),
        ("fb7ff8000000000000", .nan, "f97e00"),
        ("fbfff0000000000000", -.infinity, "f9fc00"),
    ]

    @Test("single and double encodings of special floats decode and re-encode as half", arguments: wideFloatsVectors)
    func wideFloats(hex: String, expected: Double, shortestHex: String) throws {
        let value = try CBORDecoder().decode([UInt8](hex: hex))
        guard case .float(let number) = value else {
            Issue.record("expected a float, got \(value)")
            return
        }
        #expect(number.isNaN == expected.isNaN)
        #expect(number.isNaN || number == expected)
        #expect(CBOREncoder().encode(value).hex == shortestHex)
    }

    @Test("false, true, null, undefined")
    func simpleValues() throws {
        let pairs: [(String, CBORValue)] = [("f4", false), ("f5", true), ("f6", .null), ("f7", .undefined)]
        for (hex, expected) in pairs {
            #expect(try CBORDecoder().decode([UInt8](hex: hex)) == expected)
            #expect(CBOREncoder().encode(expected).hex == hex)
        }
    }

    @Test("simple(16) and simple(255) are outside the subset and rejected")
    func unassignedSimpleValues() {
        expectRejection("f0", .unsupportedSimpleValue, at: 0)
        expectRejection("f8ff", .unsupportedSimpleValue, at: 0)
    }

    static let tagVectors: [(String, CBORValue)] = [
        ("c074323031332d30332d32315432303a30343a30305a", .tagged(0, "2013-03-21T20:04:00Z")),
        ("c11a514b67b0", .tagged(1, 1_363_896_240)),
        ("c1fb41d452d9ec200000", .tagged(1, 1_363_896_240.5)),
        ("d74401020304", .tagged(23, .byteString([1, 2, 3, 4]))),
        ("d818456449455446", .tagged(24, .byteString([0x64, 0x49, 0x45, 0x54, 0x46]))),
        ("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, "http://www.example.com")),
        ("c249010000000000000000", .tagged(2, .byteString([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
        ("c349010000000000000000", .tagged(3, .byteString([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
    ]

    @Test("tags", arguments: tagVectors)
    func tags(hex: String, expected: CBORValue) throws {
        #expect(try CBORDecoder().decode([UInt8](hex: hex)) == expected)
        #expect(CBOREncoder().encode(expected).hex == hex)
    }

    static let stringVectors: [(String, CBORValue)] = [
        ("40", .byteString([])),
        ("4401020304", .byteString([1, 2, 3, 4])),
        ("60", ""),
        ("6161", "a"),
        ("6449455446", "IETF"),
        ("62225c", "\"\\"),
        ("62c3bc", "\u{00fc}"),
        ("63e6b0b4", "\u{6c34}"),
        ("64f0908591", "\u{10151}"),
    ]

    @Test("byte and text strings", arguments: stringVectors)
    func strings(hex: String, expected: CBORValue) throws {
        #expect(try CBORDecoder().decode([UInt8](hex: hex)) == expected)
        #expect(CBOREncoder().encode(expected).hex == hex)
    }

    static let containerVectors: [(String, CBORValue)] = [
        ("80", []),
        ("83010203", [1, 2, 3]),
        ("8301820203820405", [1, [2, 3], [4, 5]]),
        (
            "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
            .array((1...25).map { .unsignedInteger($0) })
        ),
        ("a0", [:]),
        ("a201020304", [1: 2, 3: 4]),
        ("a26161016162820203", ["a": 1, "b": [2, 3]]),
        ("826161a161626163", ["a", ["b": "c"]]),
        ("a56161614161626142616361436164614461656145", ["a": "A", "b": "B", "c": "C", "d": "D", "e": "E"]),
    ]

    @Test("arrays, nested arrays and maps", arguments: containerVectors)
    func containers(hex: String, expected: CBORValue) throws {
        #expect(try CBORDecoder().decode([UInt8](hex: hex)) == expected)
        #expect(CBOREncoder().encode(expected).hex == hex)
    }

    @Test("indefinite-length examples are rejected")
    func indefiniteLengthExamples() {
        expectRejection("5f42010243030405ff", .indefiniteLength, at: 0)
        expectRejection("7f657374726561646d696e67ff", .indefiniteLength, at: 0)
        expectRejection("9fff", .indefiniteLength, at: 0)
        expectRejection("9f018202039f0405ffff", .indefiniteLength, at: 0)
        expectRejection("83018202039f0405ff", .indefiniteLength, at: 5)
        expectRejection("bf61610161629f0203ffff", .indefiniteLength, at: 0)
        expectRejection("826161bf61626163ff", .indefiniteLength, at: 3)
    }

    static let canonicalVectors: [String] =
        (integerVectors + tagVectors + stringVectors + containerVectors).map(\.0)
        + floatVectors.map(\.0) + ["f4", "f5", "f6", "f7"]

    @Test("decode then encode reproduces every canonical vector", arguments: canonicalVectors)
    func roundTrip(hex: String) throws {
        let value = try CBORDecoder().decode([UInt8](hex: hex))
        #expect(CBOREncoder().encode(value).hex == hex)
    }
}
