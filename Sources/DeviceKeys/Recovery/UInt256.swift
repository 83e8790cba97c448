/// A 256-bit unsigned integer, four 64-bit words, least significant first: the little arithmetic modulo P-256's
/// prime and order that recovering a signer's public key needs, and no more. Nothing here is constant time: it works
/// on public values only (a signature, a message digest).
struct UInt256: Equatable, Sendable {
    var w0: UInt64
    var w1: UInt64
    var w2: UInt64
    var w3: UInt64

    static let zero = UInt256(w0: 0, w1: 0, w2: 0, w3: 0)
    static let one = UInt256(w0: 1, w1: 0, w2: 0, w3: 0)

    init(w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64) {
        self.w0 = w0
        self.w1 = w1
        self.w2 = w2
        self.w3 = w3
    }

    /// The big-endian bytes, at most 32 of them.
    init?(bigEndian bytes: some Collection<UInt8>) {
        guard bytes.count <= 32 else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in bytes.reversed().enumerated() {
            words[index / 8] |= UInt64(byte) << (8 * UInt64(index % 8))
        }
        self.init(w0: words[0], w1: words[1], w2: words[2], w3: words[3])
    }

    /// The 32 big-endian bytes.
    var bigEndianBytes: [UInt8] {
        [w3, w2, w1, w0].flatMap { word in (0..<8).reversed().map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }

    var isZero: Bool { self == .zero }
    var isEven: Bool { w0 & 1 == 0 }

    static func < (lhs: UInt256, rhs: UInt256) -> Bool {
        if lhs.w3 != rhs.w3 { return lhs.w3 < rhs.w3 }
        if lhs.w2 != rhs.w2 { return lhs.w2 < rhs.w2 }
        if lhs.w1 != rhs.w1 { return lhs.w1 < rhs.w1 }
        return lhs.w0 < rhs.w0
    }

    /// `self + other` and whether it carried out of 256 bits.
    func adding(_ other: UInt256) -> (UInt256, carry: Bool) {
        let (s0, c0) = w0.addingReportingOverflow(other.w0)
        let (s1, c1) = Self.add(w1, other.w1, c0)
        let (s2, c2) = Self.add(w2, other.w2, c1)
        let (s3, c3) = Self.add(w3, other.w3, c2)
        return (UInt256(w0: s0, w1: s1, w2: s2, w3: s3), c3)
    }

    /// `self - other` and whether it borrowed.
    func subtracting(_ other: UInt256) -> (UInt256, borrow: Bool) {
        let (d0, b0) = w0.subtractingReportingOverflow(other.w0)
        let (d1, b1) = Self.subtract(w1, other.w1, b0)
        let (d2, b2) = Self.subtract(w2, other.w2, b1)
        let (d3, b3) = Self.subtract(w3, other.w3, b2)
        return (UInt256(w0: d0, w1: d1, w2: d2, w3: d3), b3)
    }

    /// `self >> 1`, `carry` shifted into the top bit.
    func halved(carry: Bool = false) -> UInt256 {
        UInt256(
            w0: w0 >> 1 | w1 << 63, w1: w1 >> 1 | w2 << 63, w2: w2 >> 1 | w3 << 63,
            w3: w3 >> 1 | (carry ? 1 << 63 : 0))
    }

    /// Bit `index`, 0 the least significant.
    func bit(_ index: Int) -> Bool {
        let word =
            switch index / 64 {
            case 0: w0
            case 1: w1
            case 2: w2
            default: w3
            }
        return word >> UInt64(index % 64) & 1 == 1
    }

    private static func add(_ a: UInt64, _ b: UInt64, _ carry: Bool) -> (UInt64, Bool) {
        let (sum, first) = a.addingReportingOverflow(b)
        let (total, second) = sum.addingReportingOverflow(carry ? 1 : 0)
        return (total, first || second)
    }

    private static func subtract(_ a: UInt64, _ b: UInt64, _ borrow: Bool) -> (UInt64, Bool) {
        let (difference, first) = a.subtractingReportingOverflow(b)
        let (total, second) = difference.subtractingReportingOverflow(borrow ? 1 : 0)
        return (total, first || second)
    }
}

/// Arithmetic modulo an odd modulus below 2^256.
struct Modulus: Sendable {
    let m: UInt256

    /// `value mod m`, for a value below 2m.
    func reduced(_ value: UInt256) -> UInt256 {
        value < m ? value : value.subtracting(m).0
    }

    func add(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let (sum, carry) = a.adding(b)
        return carry || !(sum < m) ? sum.subtracting(m).0 : sum
    }

    func subtract(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let (difference, borrow) = a.subtracting(b)
        return borrow ? difference.adding(m).0 : difference
    }

    func negate(_ a: UInt256) -> UInt256 {
        a.isZero ? a : m.subtracting(a).0
    }

    /// `a · b mod m`, by doubling and adding from `b`'s top bit.
    func multiply(_ a: UInt256, _ b: UInt256) -> UInt256 {
        var result = UInt256.zero
        for index in stride(from: 255, through: 0, by: -1) {
            result = add(result, result)
            if b.bit(index) { result = add(result, a) }
        }
        return result
    }

    /// `a⁻¹ mod m` by the binary extended Euclidean algorithm; nil for zero (or a value sharing a factor with m).
    func inverse(_ a: UInt256) -> UInt256? {
        guard !a.isZero else { return nil }
        var (u, v) = (a, m)
        var (x1, x2) = (UInt256.one, UInt256.zero)
        while u != .one, v != .one {
            guard !u.isZero, !v.isZero else { return nil }
            while u.isEven {
                u = u.halved()
                x1 = halve(x1)
            }
            while v.isEven {
                v = v.halved()
                x2 = halve(x2)
            }
            if u < v {
                v = v.subtracting(u).0
                x2 = subtract(x2, x1)
            } else {
                u = u.subtracting(v).0
                x1 = subtract(x1, x2)
            }
        }
        return u == .one ? x1 : x2
    }

    /// `a / 2 mod m`.
    private func halve(_ a: UInt256) -> UInt256 {
        guard !a.isEven else { return a.halved() }
        let (sum, carry) = a.adding(m)
        return sum.halved(carry: carry)
    }
}
