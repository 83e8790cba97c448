import Crypto
import Foundation
import StrictJSON
import Testing
import _CryptoExtras

@testable import SocialTokens

/// A key set skips the members it cannot use (`KeySetParsingTests` shows them unknown to a token); here each is
/// refused for its own reason, so a check taken away cannot hide behind the cryptographic library's refusal.
@Suite("Each JWK a key set cannot use is refused for its own reason")
struct KeyReadingTests {
    private static let rsa = TestKeySet.rsa(TestKeys.rsa.publicKey, kid: "k")
    private static let p256 = TestKeySet.p256(TestKeys.p256.publicKey, kid: "k")
    private static let p256Point = Array(TestKeys.p256.publicKey.x963Representation)

    @Test(
        "refused",
        arguments: [
            ("no kid", rsa.with("kid", nil), .noKeyID),
            ("an empty kid", rsa.with("kid", ""), .noKeyID),
            ("use enc", rsa.with("use", "enc"), .notForVerification),
            ("key_ops without verify", rsa.with("key_ops", ["sign"]), .notForVerification),
            ("kty oct", ["kty": "oct", "kid": "k", "k": "c2VjcmV0"], .unsupportedKeyType),
            ("no kty", rsa.with("kty", nil), .unsupportedKeyType),
            ("RSA with alg RS384", rsa.with("alg", "RS384"), .algorithmDoesNotFitKey),
            ("EC with alg RS256", p256.with("alg", "RS256"), .algorithmDoesNotFitKey),
            ("no n", rsa.with("n", nil), .rsaParametersMissing),
            ("n not base64url", rsa.with("n", "a+b/"), .rsaParametersMissing),
            ("n all zeros", rsa.with("n", "AAAA"), .rsaParametersMissing),
            ("no e", rsa.with("e", nil), .rsaParametersMissing),
            ("an empty e", rsa.with("e", ""), .emptyExponent),
            ("RSA 1024", TestKeySet.rsa(KeySetParsingTests.rsa1024, kid: "k"), .rsaModulusSize(bits: 1024)),
            ("RSA 2047", rsa.with("n", modulus(bytes: 256, top: 0x7F)), .rsaModulusSize(bits: 2047)),
            ("RSA 8193", rsa.with("n", modulus(bytes: 1025, top: 0x01)), .rsaModulusSize(bits: 8193)),
            ("EC P-384", p256.with("crv", "P-384"), .notP256),
            ("EC without crv", p256.with("crv", nil), .notP256),
            ("no x", p256.with("x", nil), .coordinatesMissing),
            ("y not base64url", p256.with("y", "a+b/"), .coordinatesMissing),
            ("x of 31 bytes", p256.with("x", TestBase64URL.encode(p256Point[2...32])), .coordinateLength),
            ("y of 33 bytes", p256.with("y", TestBase64URL.encode([0] + p256Point[33...64])), .coordinateLength),
            ("a point off the curve", p256.with("y", TestBase64URL.encode(p256Point[1...32])), .invalidKey),
        ] as [(String, [String: any Sendable], JSONWebKey.Unusable)])
    func refused(description: String, jwk: [String: any Sendable], reason: JSONWebKey.Unusable) throws {
        #expect(throws: reason) { try JSONWebKey.read(try Self.members(jwk)) }
    }

    @Test("the keys beside them are read, at the modulus sizes' edges too (2048 and 8192 bits)")
    func read() throws {
        let rsa = try JSONWebKey.read(try Self.members(Self.rsa))
        #expect(rsa.keyID == "k" && rsa.algorithm == .rs256)
        #expect(try JSONWebKey.read(try Self.members(Self.p256)).algorithm == .es256)
        let largest = Self.rsa.with("n", Self.modulus(bytes: 1024, top: 0xFF))
        #expect(try JSONWebKey.read(try Self.members(largest)).algorithm == .rs256)
    }

    @Test("a certificate under an empty kid is skipped; the one beside it is kept")
    func certificateWithoutKeyID() throws {
        let document = try JSONSerialization.data(withJSONObject: ["": TestCertificates.rsa, "k": TestCertificates.rsa])
        let set = try #require(JSONWebKeySet(certificates: Array(document)))
        #expect(Array(set.keys.keys) == ["k"])
    }

    /// A modulus of `bytes` bytes whose first is `top` and the rest 0xFF, in base64url.
    private static func modulus(bytes: Int, top: UInt8) -> String {
        TestBase64URL.encode([top] + [UInt8](repeating: 0xFF, count: bytes - 1))
    }

    /// The JSON members of `jwk` as a key set document holds them.
    private static func members(_ jwk: [String: any Sendable]) throws -> [String: JSONValue] {
        var members: [JSONValue] = []
        if case .array(let keys)? = JSONObject.decode(TestKeySet.document([jwk]))?["keys"] { members = keys }
        return try #require(members.first?.object)
    }
}
