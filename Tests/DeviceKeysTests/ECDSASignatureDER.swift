/// DER ECDSA signatures built by hand, for shapes swift-crypto never makes.
enum ECDSASignatureDER {
    /// The order n of P-256.
    private static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// The DER of `(r, n - s)` for a raw 64-byte `r‖s`: the same signature with the other S.
    static func withHighS(_ raw: [UInt8]) -> [UInt8] {
        let r = Array(raw[0..<32])
        let s = Array(raw[32..<64])
        return der(r: r, s: subtract(s, from: order))
    }

    /// The DER `ECDSA-Sig-Value` of two 32-byte big-endian integers.
    static func der(r: [UInt8], s: [UInt8]) -> [UInt8] {
        let body = integer(r) + integer(s)
        return [0x30, UInt8(body.count)] + body
    }

    private static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.first.map({ $0 & 0x80 != 0 }) ?? true { bytes.insert(0, at: 0) }
        return [0x02, UInt8(bytes.count)] + bytes
    }

    private static func subtract(_ subtrahend: [UInt8], from minuend: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: minuend.count)
        var borrow = 0
        for index in minuend.indices.reversed() {
            let difference = Int(minuend[index]) - Int(subtrahend[index]) - borrow
            result[index] = UInt8((difference + 256) % 256)
            borrow = difference < 0 ? 1 : 0
        }
        return result
    }
}
