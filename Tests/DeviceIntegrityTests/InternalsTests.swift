import Testing

@testable import DeviceIntegrity

/// The helpers every check leans on, each rule on its own.
@Suite("Device integrity: comparison and base64url")
struct InternalsTests {
    @Test func byteStringsOfOtherLengthsAreNeverEqual() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2], [1, 2, 3]), "a prefix is not the whole")
        #expect(!ConstantTime.equals([1, 2, 3], []))
        #expect(!ConstantTime.equals([1, 2, 4], [1, 2, 3]))
    }

    @Test func base64URLTakesOnlyItsOwnAlphabetUnpadded() {
        #expect(Base64URL.decode("ab-_") == [0x69, 0xBF, 0xBF])
        #expect(Base64URL.decode("ab+/") == nil, "standard base64's characters")
        #expect(Base64URL.decode("ab==") == nil, "padding")
        #expect(Base64URL.decode("abcde") == nil, "a length no encoding has")
    }
}
