import Crypto
import Foundation
import SocialTokens
import Testing

@Suite("Apple client secrets")
struct AppleClientSecretTests {
    @Test("Header, claims, and an ES256 signature that verifies with the public key")
    func clientSecret() throws {
        let fixture = try AppleClientFixture()
        let secret = try fixture.client.clientSecret(clientID: AppleClientFixture.clientID)
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let header = try #require(TestBase64URL.decodeJSON(parts[0]))
        #expect(header.count == 2)
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == AppleClientFixture.keyID)
        let claims = try #require(TestBase64URL.decodeJSON(parts[1]))
        let now = Int(TestClock.reference.timeIntervalSince1970)
        #expect(claims.count == 5)
        #expect(claims["iss"] as? String == AppleClientFixture.teamID)
        #expect(claims["iat"] as? Int == now)
        #expect(claims["exp"] as? Int == now + 300)
        #expect(claims["aud"] as? String == "https://appleid.apple.com")
        #expect(claims["sub"] as? String == AppleClientFixture.clientID)
        // JWS wants R‖S, 64 bytes, not DER.
        let signature = try #require(TestBase64URL.decode(parts[2]))
        #expect(signature.count == 64)
        let publicKey = AppleClientFixture.key.publicKey
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(publicKey.isValidSignature(ecdsa, for: Array("\(parts[0]).\(parts[1])".utf8)))
        #expect(!publicKey.isValidSignature(ecdsa, for: Array("\(parts[0]).\(parts[0])".utf8)))
    }

    @Test("The claims follow the clock")
    func followsClock() throws {
        let fixture = try AppleClientFixture()
        fixture.clock.advance(seconds: 1000.7)
        let secret = try fixture.client.clientSecret(clientID: "app.hale.web")
        let claims = try #require(TestBase64URL.decodeJSON(secret.split(separator: ".")[1]))
        let now = Int(TestClock.reference.timeIntervalSince1970) + 1000
        #expect(claims["iat"] as? Int == now)
        #expect(claims["exp"] as? Int == now + 300)
        #expect(claims["sub"] as? String == "app.hale.web")
    }

    @Test("An empty client id is a configuration error")
    func emptyClientID() throws {
        let fixture = try AppleClientFixture()
        #expect(throws: SocialTokenError.notConfigured(.apple)) {
            try fixture.client.clientSecret(clientID: "")
        }
    }

    @Test("The fixture's .p8 is PKCS#8, as Apple's are")
    func fixtureKeyIsPKCS8() {
        #expect(AppleClientFixture.key.pemRepresentation.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test(
        "Credentials that cannot sign are refused when the client is made",
        arguments: [
            ("", AppleClientFixture.keyID, AppleClientFixture.key.pemRepresentation),
            (AppleClientFixture.teamID, "", AppleClientFixture.key.pemRepresentation),
            ("TEAM123456 ", AppleClientFixture.keyID, AppleClientFixture.key.pemRepresentation),
            (AppleClientFixture.teamID, AppleClientFixture.keyID, ""),
            (AppleClientFixture.teamID, AppleClientFixture.keyID, "not a key"),
            (AppleClientFixture.teamID, AppleClientFixture.keyID, AppleClientSecretTests.sec1PEM),
            (AppleClientFixture.teamID, AppleClientFixture.keyID, P384.Signing.PrivateKey().pemRepresentation),
            (AppleClientFixture.teamID, AppleClientFixture.keyID, AppleClientSecretTests.truncatedPEM),
        ])
    func refusedCredentials(teamID: String, keyID: String, pem: String) {
        var credentials = AppleClientFixture.credentials(pem: pem)
        credentials.teamID = teamID
        credentials.keyID = keyID
        #expect(throws: SocialTokenError.notConfigured(.apple)) {
            _ = try AppleTokenClient(credentials: credentials, http: FakeProvider())
        }
    }

    @Test("The SEC1 form is a valid key, refused only for its form")
    func sec1IsValidKey() throws {
        let key = try P256.Signing.PrivateKey(pemRepresentation: Self.sec1PEM)
        #expect(key.rawRepresentation == AppleClientFixture.key.rawRepresentation)
    }

    @Test("Whitespace around the PEM, as a file read whole brings it, is fine")
    func surroundingWhitespace() throws {
        let credentials = AppleClientFixture.credentials(pem: "\n" + AppleClientFixture.key.pemRepresentation + "\n\n")
        _ = try AppleTokenClient(credentials: credentials, http: FakeProvider())
    }

    @Test("Describing the credentials or the client never shows the key")
    func descriptionsRedactKey() throws {
        let fixture = try AppleClientFixture()
        let credentials = AppleClientFixture.credentials()
        let keyLines = credentials.privateKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        var dumped = ""
        dump(credentials, to: &dumped)
        dump(fixture.client, to: &dumped)
        #expect(!dumped.contains("signingKey"))
        for text in [
            "\(credentials)", String(reflecting: credentials), dumped, "\(fixture.client)",
            String(reflecting: fixture.client),
        ] {
            #expect(text.contains(AppleClientFixture.keyID))
            for line in keyLines { #expect(!text.contains(line)) }
        }
    }

    /// The fixture key as a SEC1 `EC PRIVATE KEY`: the same key, in a form Apple does not hand out.
    static let sec1PEM: String = {
        let key = AppleClientFixture.key
        let der: [UInt8] =
            [0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20] + Array(key.rawRepresentation)
            + [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0xA1, 0x44, 0x03, 0x42, 0x00]
            + Array(key.publicKey.x963Representation)
        let body = Array(Data(der).base64EncodedString())
        let lines = stride(from: 0, to: body.count, by: 64).map { String(body[$0..<min($0 + 64, body.count)]) }
        return (["-----BEGIN EC PRIVATE KEY-----"] + lines + ["-----END EC PRIVATE KEY-----"]).joined(separator: "\n")
    }()

    /// The fixture's PEM with part of its body cut.
    static let truncatedPEM: String = {
        let lines = AppleClientFixture.key.pemRepresentation.split(separator: "\n")
        return ([lines[0], lines[1].prefix(20)] + lines.suffix(1)).joined(separator: "\n")
    }()
}
