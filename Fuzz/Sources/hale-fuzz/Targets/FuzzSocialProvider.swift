import Crypto
import Foundation
import SocialTokens
import WebAuthn
import X509
import _CryptoExtras
import ByteEncoding

/// The identity providers the social target plays: every key set URL serves one RSA and one P-256 key, and the
/// Firebase certificate URL the RSA key's certificate, each cached for a day; the clock stands still at the time the
/// seeds' claims are written for.
struct FuzzSocialProvider: SocialHTTPClient {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    // 32 bytes of 0x3C are a valid P-256 scalar: far below the group order.
    static let ecKey = try! P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0x3C, count: 32))
    // Generating a 2048-bit key with the system's randomness does not fail; a new key each run changes nothing the
    // target checks, as the set the verifier fetches is made from it.
    static let rsaKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    static let firebaseCertificatesURL = "https://keys.test/firebase"

    static let verifier: SocialTokenVerifier = {
        var configuration = SocialProvidersConfiguration(
            googleClientIDs: ["1234-ios.apps.googleusercontent.com"], appleAudiences: ["app.hale.ios", "app.hale.web"],
            facebookAppID: "987654321", facebookAppSecret: "fuzz-secret")
        configuration.googleKeySetURL = "https://keys.test/google"
        configuration.appleKeySetURL = "https://keys.test/apple"
        configuration.facebookKeySetURL = "https://keys.test/facebook"
        configuration.facebookGraphURL = "https://graph.test/"
        configuration.firebaseProjectID = "hale-fuzz"
        configuration.firebaseCertificatesURL = firebaseCertificatesURL
        return SocialTokenVerifier(configuration: configuration, http: FuzzSocialProvider(), now: { now })
    }()

    static func provider(for mode: UInt8) -> SocialProvider? {
        switch mode {
        case UInt8(ascii: "G"), UInt8(ascii: "g"): .google
        case UInt8(ascii: "A"), UInt8(ascii: "a"): .apple
        case UInt8(ascii: "F"), UInt8(ascii: "f"): .facebook
        case UInt8(ascii: "R"), UInt8(ascii: "r"): .firebase
        default: nil
        }
    }

    /// A JWS of `claims` signed with the P-256 key.
    static func signedES256(claims: [UInt8]) -> String {
        let input = signingInput(header: #"{"alg":"ES256","kid":"fuzz-es256"}"#, claims: claims)
        // Signing with a valid key cannot fail.
        return input + "." + Base64URL.encode(try! ecKey.signature(for: Array(input.utf8)).rawRepresentation)
    }

    /// A JWS of `claims` signed with the RSA key, as Apple signs its notifications and Google signs Firebase ID tokens.
    static func signedRS256(claims: [UInt8]) -> String {
        let input = signingInput(header: #"{"alg":"RS256","kid":"fuzz-rs256"}"#, claims: claims)
        // Signing with a valid 2048-bit key and PKCS #1 v1.5 padding cannot fail.
        let signature = try! rsaKey.signature(for: Array(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    private static func signingInput(header: String, claims: [UInt8]) -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(claims)
    }

    /// The JWK Set every key set URL serves.
    static let keySet: [UInt8] = {
        // A 2048-bit key's primitives are always available.
        let rsa = try! rsaKey.publicKey.getKeyPrimitives()
        let point = Array(ecKey.publicKey.x963Representation)
        let keys: [[String: String]] = [
            [
                "kty": "RSA", "kid": "fuzz-rs256", "alg": "RS256", "use": "sig", "n": Base64URL.encode(rsa.modulus),
                "e": Base64URL.encode(rsa.publicExponent),
            ],
            [
                "kty": "EC", "crv": "P-256", "kid": "fuzz-es256", "alg": "ES256", "x": Base64URL.encode(point[1...32]),
                "y": Base64URL.encode(point[33...]),
            ],
        ]
        // String dictionaries always encode.
        return Array(try! JSONEncoder().encode(["keys": keys]))
    }()

    /// The certificate set the Firebase certificate URL serves, as Google serves its securetoken keys: the RSA key's
    /// self-signed certificate in PEM, keyed by its `kid`.
    static let certificateSet: [UInt8] = {
        // One short ASCII common name always encodes.
        let name = try! DistinguishedName { CommonName("securetoken.system.gserviceaccount.com") }
        // Self-signing with a valid 2048-bit RSA key, in the algorithm made for RSA keys, cannot fail.
        let certificate = try! Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(rsaKey.publicKey),
            notValidBefore: now.addingTimeInterval(-86_400), notValidAfter: now.addingTimeInterval(13 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: Certificate.Extensions(), issuerPrivateKey: Certificate.PrivateKey(rsaKey))
        // A certificate just built serialises, and string dictionaries always encode.
        let pem = try! certificate.serializeAsPEM().pemString
        return Array(try! JSONEncoder().encode(["fuzz-rs256": pem]))
    }()

    func get(_ url: String) async throws -> SocialHTTPResponse {
        let body = url == Self.firebaseCertificatesURL ? Self.certificateSet : Self.keySet
        return SocialHTTPResponse(status: 200, headers: [("Cache-Control", "max-age=86400")], body: body)
    }

    func postForm(_ url: String, fields: [(String, String)]) async throws -> SocialHTTPResponse {
        SocialHTTPResponse(status: 404)
    }
}
