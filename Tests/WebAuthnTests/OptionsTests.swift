import ByteEncoding
import Foundation
import Testing

@testable import WebAuthn

@Suite("WebAuthn options and relying party")
struct OptionsTests {
    let relyingParty: RelyingParty

    init() throws {
        relyingParty = try RelyingParty(
            id: "petwash.co.il", name: "Pet Wash", origins: ["https://petwash.co.il"],
            androidCertificateDigests: [
                "FA:C6:17:45:DC:09:03:78:6F:B9:ED:E6:2A:96:2B:39:9F:73:48:F0:BB:6F:89:9B:83:32:66:75:91:03:3B:9C"
            ])
    }

    @Test func androidOriginsAreDerivedFromCertificateDigests() throws {
        // base64url of the 32 digest bytes, without padding, as Credential Manager writes it.
        #expect(relyingParty.origins.contains("android:apk-key-hash:-sYXRdwJA3hvue3mKpYrOZ9zSPC7b4mbgzJmdZEDO5w"))
        #expect(relyingParty.origins.contains("https://petwash.co.il"))
        #expect(throws: WebAuthnError.self) { try RelyingParty.androidOrigin(certificateDigest: "AB:CD") }
    }

    @Test func creationOptionsHaveTheLevel3JSONShape() throws {
        let options = relyingParty.creationOptions(
            challenge: [1, 2, 3], user: .init(handle: [9, 9], name: "a@example.com", displayName: "A"),
            excluding: [CredentialDescriptor(id: [7, 7, 7], transports: ["internal"])])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(options)) as? [String: Any]
        let object = try #require(json)
        #expect((object["rp"] as? [String: Any])?["id"] as? String == "petwash.co.il")
        #expect((object["user"] as? [String: Any])?["id"] as? String == "CQk")
        #expect(object["challenge"] as? String == "AQID")
        let algorithms = (object["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int }
        #expect(algorithms == [-7, -8, -257] + (COSEAlgorithm.mlDSA65.isAvailable ? [-49, -50] : []))
        #expect(object["timeout"] as? Int == 300_000)
        #expect((object["excludeCredentials"] as? [[String: Any]])?.first?["id"] as? String == "BwcH")
        let selection = try #require(object["authenticatorSelection"] as? [String: Any])
        #expect(selection["residentKey"] as? String == "required")
        #expect(selection["requireResidentKey"] as? Bool == true)
        #expect(selection["userVerification"] as? String == "preferred")
        #expect(object["attestation"] as? String == "none")
        #expect(object["hints"] as? [String] == [])
        #expect((object["extensions"] as? [String: Any])?["credProps"] as? Bool == true)
    }

    @Test func requestOptionsForDiscoverableSignIn() throws {
        let options = relyingParty.requestOptions(challenge: [4, 5, 6])
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(options)) as? [String: Any])
        #expect(object["rpId"] as? String == "petwash.co.il")
        #expect(object["challenge"] as? String == "BAUG")
        #expect((object["allowCredentials"] as? [Any])?.isEmpty == true)
    }
}

@Suite("Base64URL")
struct Base64URLTests {
    @Test(arguments: [0, 1, 2, 3, 4, 5, 31, 32, 33, 100])
    func roundTripsAndMatchesFoundation(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let encoded = Base64URL.encode(bytes)
        let foundation = Data(bytes).base64EncodedString()
        #expect(
            encoded
                == foundation.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: ""))
        #expect(Base64URL.decode(encoded) == Data(bytes))
        #expect(Base64URL.decode(foundation) == Data(bytes), "standard base64 with padding")
    }

    @Test(arguments: ["a", "abcde", "ab=c", "a===", "ab=", "not base64!", "ab cd", "YQ=", "====", "Y\u{e9}Q"])
    func rejectsWhatIsNotBase64(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
