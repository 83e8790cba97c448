import Testing

@testable import HealthSamples

@Suite("Health samples: JavaScript's Number-to-String")
struct JavaScriptNumberTests {
    /// Written by Node.js's `String(value)`, with the Double's bits so the input is exact.
    @Test(
        "known JavaScript outputs",
        arguments: [
            (0x40b3_8800_0000_0000, "5000"), (0x3ff8_0000_0000_0000, "1.5"),
            (0x3fd3_3333_3333_3334, "0.30000000000000004"), (0x444b_1ae4_d6e2_ef50, "1e+21"),
            (0x4415_af1d_78b5_8c40, "100000000000000000000"), (0x441a_c53a_7e04_bcda, "123456789012345680000"),
            (0x3eb0_c6f7_a0b5_ed8d, "0.000001"), (0x3e7a_d7f2_9abc_af48, "1e-7"), (0x3e84_21f5_f40d_8376, "1.5e-7"),
            (0x3eb4_b3fd_5942_cd96, "0.000001234"), (0x8000_0000_0000_0000, "0"), (0xc004_0000_0000_0000, "-2.5"),
            (0x3fef_0a3d_70a3_d70a, "0.97"), (0x4340_0000_0000_0000, "9007199254740992"),
            (0x7e37_e43c_8800_759c, "1e+300"), (0x0000_0000_0000_0001, "5e-324"),
            (0x7fef_ffff_ffff_ffff, "1.7976931348623157e+308"), (0x405e_dd2f_1a9f_be77, "123.456"),
            (0x4059_0000_0000_0000, "100"), (0x3f20_1f31_f46e_d246, "0.000123"),
            (0x3fd5_5555_5555_5555, "0.3333333333333333"), (0x4011_6666_6666_6666, "4.35"),
            (0x4341_c379_37e0_8000, "10000000000000000"), (0x430c_6bf5_2634_0002, "1000000000000000.2"),
            (0x42dc_1221_6116_c000, "123456780000000"), (0x3efa_36e2_eb1c_432d, "0.000025"),
            (0x4480_f0cf_064d_d592, "1e+22"), (0x4450_4356_1a88_2930, "1.2e+21"),
            (0x444b_1ae4_d6e2_ef4f, "999999999999999900000"), (0x4099_2560_4189_374c, "1609.344"),
            (0x40f5_1800_0000_0000, "86400"), (0x4008_0000_0000_0001, "3.0000000000000004"),
            (0x0000_0000_0000_0003, "1.5e-323"), (0x4058_a666_6666_6666, "98.6"),
        ] as [(UInt64, String)])
    func knownOutputs(bits: UInt64, text: String) {
        #expect(JavaScriptNumber.string(Double(bitPattern: bits)) == text)
    }

    @Test("special values")
    func specialValues() {
        #expect(JavaScriptNumber.string(.nan) == "NaN")
        #expect(JavaScriptNumber.string(.infinity) == "Infinity")
        #expect(JavaScriptNumber.string(-.infinity) == "-Infinity")
        #expect(JavaScriptNumber.string(0.1 + 0.2) == "0.30000000000000004")
    }

    @Test("300 values generated and written by Node.js")
    func corpus() {
        for (bits, text) in javaScriptNumberCorpus {
            #expect(JavaScriptNumber.string(Double(bitPattern: bits)) == text, "\(bits)")
        }
    }
}
