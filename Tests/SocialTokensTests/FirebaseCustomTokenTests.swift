import Foundation
import SocialTokens
import StrictJSON
import Testing
import _CryptoExtras

/// Firebase custom tokens: the same bytes as Firebase's Admin SDK mints, and every claim Firebase requires, checked
/// against the service account's public key.
@Suite("Firebase custom tokens")
struct FirebaseCustomTokenTests {
    static let account = try! GoogleServiceAccount(json: Array(AdminSDKFixture.serviceAccountJSON.utf8))

    private func signer(at date: Date = AdminSDKFixture.issuedAt, account: GoogleServiceAccount = Self.account)
        -> FirebaseCustomTokenSigner
    {
        FirebaseCustomTokenSigner(serviceAccount: account, now: { date })
    }

    @Test("The same token as the Admin SDK's, byte for byte")
    func sameAsAdminSDK() throws {
        #expect(try signer().customToken(uid: "petwash-user-1") == AdminSDKFixture.plain)
    }

    @Test("The same JSON escapes as the Admin SDK's: non-ASCII as UTF-16 \\u escapes, quotes, backslashes, newlines")
    func sameEscapesAsAdminSDK() throws {
        #expect(try signer().customToken(uid: "ünïcødé-😀\"/\\\n") == AdminSDKFixture.unicode)
    }

    @Test("The same developer claims as the Admin SDK's, in their order")
    func sameClaimsAsAdminSDK() throws {
        let claims: [(name: String, value: JSONValue)] = [
            ("plan", .string("gold")), ("premium", .bool(true)), ("tier", .integer(3)),
            ("tags", .array([.string("a"), .string("b")])), ("none", .null),
        ]
        #expect(try signer().customToken(uid: "petwash-user-1", claims: claims) == AdminSDKFixture.claims)
    }

    @Test("Signed RS256 by the service account, with every claim signInWithCustomToken requires")
    func everyClaim() throws {
        let token = try signer().customToken(uid: "petwash-user-1")
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let signature = _RSA.Signing.RSASignature(rawRepresentation: try #require(Self.decode(parts[2])))
        #expect(
            Self.account.publicKey.isValidSignature(
                signature, for: Data("\(parts[0]).\(parts[1])".utf8), padding: .insecurePKCS1v1_5))
        let header = try #require(try JSONSerialization.jsonObject(with: Self.decode(parts[0])!) as? [String: Any])
        #expect(header.count == 3)
        #expect(header["alg"] as? String == "RS256")
        #expect(header["typ"] as? String == "JWT")
        #expect(header["kid"] as? String == "0123456789abcdef0123456789abcdef01234567")
        let claims = try #require(try JSONSerialization.jsonObject(with: Self.decode(parts[1])!) as? [String: Any])
        let email = "firebase-adminsdk-test@hale-petwash-test.iam.gserviceaccount.com"
        #expect(claims.count == 6)
        #expect(claims["iss"] as? String == email)
        #expect(claims["sub"] as? String == email)
        #expect(
            claims["aud"] as? String
                == "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit")
        #expect(claims["uid"] as? String == "petwash-user-1")
        #expect(claims["iat"] as? Int == 1_750_000_000)
        #expect(claims["exp"] as? Int == 1_750_003_600)
    }

    @Test("A key file without private_key_id gives a header without kid, as google-auth writes it")
    func noKeyID() throws {
        var file = try #require(
            try JSONSerialization.jsonObject(with: Data(AdminSDKFixture.serviceAccountJSON.utf8)) as? [String: Any])
        file["private_key_id"] = nil
        let account = try GoogleServiceAccount(json: Array(try JSONSerialization.data(withJSONObject: file)))
        let token = try signer(account: account).customToken(uid: "u")
        let header = try #require(token.split(separator: ".").first.flatMap { Self.decode(String($0)) })
        #expect(String(decoding: header, as: UTF8.self) == #"{"alg": "RS256", "typ": "JWT"}"#)
    }

    @Test("A uid of 1 to 128 characters, counted as Python counts them", arguments: [1, 128])
    func uidLengths(length: Int) throws {
        _ = try signer().customToken(uid: String(repeating: "😀", count: length))
    }

    @Test("An empty uid, or one of 129 characters, is refused", arguments: [0, 129])
    func invalidUID(length: Int) {
        #expect(throws: FirebaseCustomTokenError.invalidUID) {
            try signer().customToken(uid: String(repeating: "a", count: length))
        }
    }

    @Test(
        "A developer claim Firebase reserves is refused",
        arguments: [
            "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "firebase", "iat", "iss", "jti",
            "nbf", "nonce", "sub",
        ])
    func reservedClaim(name: String) {
        #expect(throws: FirebaseCustomTokenError.reservedClaim(name)) {
            try signer().customToken(uid: "u", claims: [("plan", .string("gold")), (name, .string("x"))])
        }
    }

    @Test("Two developer claims with one name are refused")
    func duplicateClaim() {
        #expect(throws: FirebaseCustomTokenError.duplicateClaim) {
            try signer().customToken(uid: "u", claims: [("plan", .string("gold")), ("plan", .string("free"))])
        }
    }

    @Test("Nested objects are written sorted by name; numbers as Python writes them")
    func nestedClaims() throws {
        let token = try signer().customToken(
            uid: "u",
            claims: [
                ("limits", .object(["z": .integer(-1), "a": .number(0.5), "m": .number(1e-05)])),
                ("big", .number(1e20)), ("empty", .object([:])), ("list", .array([])),
            ])
        let payload = try #require(Self.decode(String(token.split(separator: ".")[1])))
        #expect(
            String(decoding: payload, as: UTF8.self).hasSuffix(
                #""claims": {"limits": {"a": 0.5, "m": 1e-05, "z": -1}, "big": 1e+20, "empty": {}, "list": []}}"#))
    }

    static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
