import ByteEncoding
import Foundation
import Testing

@Suite("Base64url as clients send it")
struct LenientBase64URLTests {
    @Test func withOrWithoutPadding() {
        #expect(Base64URL.decode("YQ") == Data("a".utf8))
        #expect(Base64URL.decode("YQ==") == Data("a".utf8))
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]))
        #expect(Base64URL.decode("not base64!") == nil)
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }

    @Test func standardBase64sCharactersToo() {
        #expect(Base64URL.bytes("+/8") == [0xFB, 0xFF])
    }

    @Test func paddingOnlyWhereItCompletesAQuartet() {
        #expect(Base64URL.bytes("YQ=") == nil, "padding that leaves a length no encoding has")
        #expect(Base64URL.bytes("Y===") == nil)
        #expect(Base64URL.bytes("A") == nil, "a length no encoding has")
    }

    @Test func everyLengthRoundTrips() {
        let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 * 37) }
        for count in 0...bytes.count {
            #expect(Base64URL.bytes(Base64URL.encode(bytes.prefix(count))) == Array(bytes.prefix(count)))
        }
    }
}

@Suite("Base64url as JOSE writes it")
struct CanonicalBase64URLTests {
    @Test func takesOnlyItsOwnAlphabetUnpadded() {
        #expect(Base64URL.canonicalBytes("ab-_") == [0x69, 0xBF, 0xBF])
        #expect(Base64URL.canonicalBytes("ab+/") == nil, "standard base64's characters")
        #expect(Base64URL.canonicalBytes("ab==") == nil, "padding")
        #expect(Base64URL.canonicalBytes("abcde") == nil, "a length no encoding has")
        #expect(Base64URL.canonicalBytes("ab c") == nil, "whitespace")
        #expect(Base64URL.canonicalBytes("ab-A") == [0x69, 0xBF, 0x80])
        #expect(Base64URL.canonicalBytes("ab+A") == nil && Base64URL.bytes("ab+A") != nil, "a plus, where clients may")
        #expect(Base64URL.canonicalBytes("ab/A") == nil && Base64URL.bytes("ab/A") != nil, "a slash, where clients may")
    }

    @Test func aLengthNoEncodingHasEvenWithItsBitsClear() {
        #expect(Base64URL.canonicalBytes("A") == nil)
        #expect(Base64URL.canonicalBytes("AAAAA") == nil)
        #expect(Base64URL.canonicalBytes("AAAA") == [0, 0, 0])
    }

    @Test func unusedBitsMustBeZero() {
        #expect(Base64URL.canonicalBytes("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.canonicalBytes("-_9") == nil, "the same bytes with an unused bit set")
        #expect(Base64URL.canonicalBytes("YQ") == [0x61])
        #expect(Base64URL.canonicalBytes("YR") == nil)
    }

    @Test func everyLengthRoundTrips() {
        let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 * 91) }
        for count in 0...bytes.count {
            #expect(Base64URL.canonicalBytes(Base64URL.encode(bytes.prefix(count))) == Array(bytes.prefix(count)))
        }
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

    @Test func decodesEitherCase() {
        #expect(Hex.decode("00ffAB") == [0x00, 0xFF, 0xAB])
        #expect(Hex.decode("") == [])
    }

    @Test func refusesAnOddLengthOrAnotherCharacter() {
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("0g") == nil)
    }
}

@Suite("Constant-time comparison")
struct ConstantTimeTests {
    @Test func byteStringsOfOtherLengthsAreNeverEqual() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2], [1, 2, 3]), "a prefix is not the whole")
        #expect(!ConstantTime.equals([1, 2, 3], []))
        #expect(!ConstantTime.equals([1, 2, 4], [1, 2, 3]))
    }

    @Test func stringsByTheirUTF8() {
        #expect(ConstantTime.equals("same", "same"))
        #expect(!ConstantTime.equals("same", "sane"))
        #expect(!ConstantTime.equals("same", "same!"))
        #expect(!ConstantTime.equals("é", "e\u{301}"), "the bytes, not canonical equivalence")
    }
}
