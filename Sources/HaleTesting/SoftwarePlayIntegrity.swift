import Crypto
import Foundation

/// Google Play's side of Play Integrity in software, for tests: the app's decryption and verification keys (for the
/// server's `playIntegrity.*` settings) and tokens in Google's format, an ES256 JWS inside an A256KW + A256GCM JWE.
public struct SoftwarePlayIntegrity: Sendable {
    /// The package name of the app.
    public let packageName: String
    /// The app's signing certificate's SHA-256 fingerprint, colon-separated hex, as `apps.android` takes it.
    public let certificateFingerprint: String
    let decryptionKey = SymmetricKey(size: .bits256)
    let signingKey = P256.Signing.PrivateKey()
    let certificateDigest: [UInt8]

    /// Keys for `packageName`, signed with a certificate whose digest is random.
    public init(packageName: String = "com.example.health") {
        self.packageName = packageName
        certificateDigest = (0..<32).map { _ in UInt8.random(in: 0...255) }
        certificateFingerprint = certificateDigest.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The signing certificate's digest as Play reports it: base64url of its SHA-256.
    public var certificateDigestBase64URL: String { Self.base64URL(certificateDigest) }

    /// The settings that make Hale accept this app's tokens.
    public var settings: [String: String] {
        [
            "apps.android": "\(packageName)=\(certificateFingerprint)",
            "playIntegrity.decryptionKey": decryptionKey.withUnsafeBytes { Data($0) }.base64EncodedString(),
            "playIntegrity.verificationKey": signingKey.publicKey.derRepresentation.base64EncodedString(),
        ]
    }

    /// A token for `nonce`, made `age` before `now` (a test's clock, or the real time), with the given verdicts.
    public func token(
        nonce: String, at now: Date = Date(), age: TimeInterval = 2, appRecognition: String = "PLAY_RECOGNIZED",
        deviceRecognition: [String] = ["MEETS_DEVICE_INTEGRITY"]
    ) throws -> String {
        let payload: [String: Any] = [
            "requestDetails": [
                "requestPackageName": packageName, "nonce": nonce,
                "timestampMillis": String(Int64((now.timeIntervalSince1970 - age) * 1000)),
            ],
            "appIntegrity": [
                "appRecognitionVerdict": appRecognition, "packageName": packageName,
                "certificateSha256Digest": [Self.base64URL(certificateDigest)], "versionCode": "1",
            ],
            "deviceIntegrity": ["deviceRecognitionVerdict": deviceRecognition],
            "accountDetails": ["appLicensingVerdict": "LICENSED"],
        ]
        let body = try JSONSerialization.data(withJSONObject: payload)
        let input = "\(Self.base64URL(Array(#"{"alg":"ES256"}"#.utf8))).\(Self.base64URL(Array(body)))"
        let jws =
            "\(input).\(Self.base64URL(Array(try signingKey.signature(for: Array(input.utf8)).rawRepresentation)))"
        let contentKey = SymmetricKey(size: .bits256)
        let wrapped = try AES.KeyWrap.wrap(contentKey, using: decryptionKey)
        let header = Self.base64URL(Array(#"{"alg":"A256KW","enc":"A256GCM"}"#.utf8))
        let box = try AES.GCM.seal(Array(jws.utf8), using: contentKey, authenticating: Array(header.utf8))
        return
            ([header, Self.base64URL(Array(wrapped))]
            + [Array(box.nonce), Array(box.ciphertext), Array(box.tag)].map(Self.base64URL)).joined(separator: ".")
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
