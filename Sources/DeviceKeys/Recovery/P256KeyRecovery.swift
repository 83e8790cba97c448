import Crypto

/// The P-256 public keys that could have made an ECDSA signature over a digest (SEC 1 v2, §4.1.6): at most two.
///
/// A server that knows only the signature can look its key up by these instead of trying every key it might be:
/// the cost of a sign-in then stays the same however many keys share a device fingerprint. The candidates are only
/// where to look; the key found is then verified as any other.
enum P256KeyRecovery {
    /// The field's prime, p.
    static let prime = Modulus(
        m: UInt256(w0: 0xFFFF_FFFF_FFFF_FFFF, w1: 0x0000_0000_FFFF_FFFF, w2: 0, w3: 0xFFFF_FFFF_0000_0001))
    /// The group's order, n.
    static let order = Modulus(
        m: UInt256(
            w0: 0xF3B9_CAC2_FC63_2551, w1: 0xBCE6_FAAD_A717_9E84, w2: 0xFFFF_FFFF_FFFF_FFFF,
            w3: 0xFFFF_FFFF_0000_0000))

    /// The keys that could have signed `digest` (32 bytes) with `signature`.
    static func candidates(of signature: P256.Signing.ECDSASignature, digest: some Collection<UInt8>) -> [[UInt8]] {
        let raw = Array(signature.rawRepresentation)
        guard raw.count == 64, let r = UInt256(bigEndian: raw[0..<32]), let s = UInt256(bigEndian: raw[32..<64]),
            let z = UInt256(bigEndian: digest), !r.isZero, r < order.m, !s.isZero, s < order.m,
            let rInverse = order.inverse(r)
        else {
            return []
        }
        // Q = r⁻¹(sR − zG) = u1·G + u2·R, with R the point whose x is r (§4.1.6 step 1.6).
        let u1 = order.negate(order.multiply(order.reduced(z), rInverse))
        let u2 = order.multiply(s, rInverse)
        guard let t = multiple(u2, ofPointAt: r) else { return [] }
        guard !u1.isZero else { return [t, negated(t)].map(x963) }
        guard let g = try? P256.Signing.PrivateKey(rawRepresentation: u1.bigEndianBytes).publicKey else { return [] }
        let u1G = Point(x963: Array(g.x963Representation))
        // R and −R share their x, so u2·R is t or −t: each gives one candidate.
        return [t, negated(t)].compactMap { add(u1G, $0) }.map(x963)
    }

    struct Point {
        var x: UInt256
        var y: UInt256

        init(x: UInt256, y: UInt256) {
            self.x = x
            self.y = y
        }

        /// From `04 ‖ X ‖ Y`.
        init(x963 bytes: [UInt8]) {
            x = UInt256(bigEndian: bytes[1..<33]) ?? .zero
            y = UInt256(bigEndian: bytes[33..<65]) ?? .zero
        }
    }

    /// `k·R` for a point R with x-coordinate `x`, up to its sign; nil when no point has that x.
    private static func multiple(_ k: UInt256, ofPointAt x: UInt256) -> Point? {
        guard let point = try? P256.KeyAgreement.PublicKey(compressedRepresentation: [0x02] + x.bigEndianBytes),
            let scalar = try? P256.KeyAgreement.PrivateKey(rawRepresentation: k.bigEndianBytes),
            let shared = try? scalar.sharedSecretFromKeyAgreement(with: point)
        else {
            return nil
        }
        let product = shared.withUnsafeBytes { [0x02] + Array($0) }
        guard let full = try? P256.KeyAgreement.PublicKey(compressedRepresentation: product) else { return nil }
        return Point(x963: Array(full.x963Representation))
    }

    private static func negated(_ point: Point) -> Point {
        Point(x: point.x, y: prime.negate(point.y))
    }

    /// `a + b` for two points of different x.
    private static func add(_ a: Point, _ b: Point) -> Point? {
        let p = prime
        guard a.x != b.x, let denominator = p.inverse(p.subtract(b.x, a.x)) else { return nil }
        let slope = p.multiply(p.subtract(b.y, a.y), denominator)
        let x = p.subtract(p.subtract(p.multiply(slope, slope), a.x), b.x)
        let y = p.subtract(p.multiply(slope, p.subtract(a.x, x)), a.y)
        return Point(x: x, y: y)
    }

    private static func x963(_ point: Point) -> [UInt8] {
        [0x04] + point.x.bigEndianBytes + point.y.bigEndianBytes
    }
}
