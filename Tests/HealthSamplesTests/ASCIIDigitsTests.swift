import HealthSamples
import Testing

@Suite("Health samples: fixed-width decimal fields")
struct ASCIIDigitsTests {
    @Test func readsDigitsAndRefusesAnythingElse() {
        #expect(ASCIIDigits.value(Array("2025".utf8)[...]) == 2025)
        #expect(ASCIIDigits.value(Array("07".utf8)[...]) == 7)
        #expect(ASCIIDigits.value(Array("2025-10".utf8)[5...]) == 10)
        #expect(ASCIIDigits.value(Array("1a".utf8)[...]) == nil)
        #expect(ASCIIDigits.value(Array("+1".utf8)[...]) == nil)
        #expect(ASCIIDigits.value(Array("١٢".utf8)[...]) == nil)
    }
}
