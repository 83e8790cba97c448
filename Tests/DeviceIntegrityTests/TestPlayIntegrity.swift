import Crypto
import DeviceIntegrity
import Foundation

/// Makes Play Integrity tokens with test keys: an ES256 compact JWS inside an A256KW + A256GCM compact JWE, with
/// any part changed as a test needs.
struct TestPlayIntegrity {
    static let referenceTime = Date(timeIntervalSince1970: 1_750_000_000)
    static let nonce = "aGFsZS1ub25jZS0x"
    static let digest = "Lg0q1uTnh0kpu_GN7TnxQcFZRi4zcAxRn7mfqFiVyfQ"

    var decryptionKey = SymmetricKey(size: .bits256)
    var signingKey = P256.Signing.PrivateKey()
    var app = PlayIntegrityApp(packageName: "com.example.health", certificateDigests: [digest])
    var jweHeader = #"{"alg":"A256KW","enc":"A256GCM"}"#
    var jwsHeader = #"{"alg":"ES256"}"#
    var payload: [String: Any] = [
        "requestDetails": [
            "requestPackageName": "com.example.health", "nonce": nonce,
            "timestampMillis": String(Int64(referenceTime.timeIntervalSince1970 * 1000) - 10_000),
        ],
        "appIntegrity": [
            "appRecognitionVerdict": "PLAY_RECOGNIZED", "packageName": "com.example.health",
            "certificateSha256Digest": [digest], "versionCode": "42",
        ],
        "deviceIntegrity": ["deviceRecognitionVerdict": ["MEETS_DEVICE_INTEGRITY"]],
        "accountDetails": ["appLicensingVerdict": "LICENSED"],
    ]
    /// Replaces the JSON of `payload` when set.
    var payloadBytes: [UInt8]?
    /// Written after the JWS, inside the encryption.
    var afterJWS = ""

    func verifier(policy: PlayIntegrityPolicy = .init()) throws -> PlayIntegrityVerifier {
        try PlayIntegrityVerifier(
            decryptionKey: decryptionKey.withUnsafeBytes { Data($0) }.base64EncodedString(),
            verificationKey: signingKey.publicKey.derRepresentation.base64EncodedString(), apps: [app], policy: policy)
    }

    /// `payload[section][member] = value`.
    mutating func set(_ section: String, _ member: String, _ value: Any?) {
        var members = payload[section] as? [String: Any] ?? [:]
        members[member] = value
        payload[section] = members
    }

    /// The ES256 compact JWS of the payload.
    func jws() throws -> String {
        let body = try payloadBytes ?? Array(JSONSerialization.data(withJSONObject: payload))
        let input = "\(Self.base64URL(Array(jwsHeader.utf8))).\(Self.base64URL(body))"
        let signature = try signingKey.signature(for: Array(input.utf8)).rawRepresentation
        return "\(input).\(Self.base64URL(Array(signature)))"
    }

    /// The five base64url parts of the compact JWE of the JWS, for tests to change.
    func jweParts() throws -> [String] {
        let contentKey = SymmetricKey(size: .bits256)
        let wrapped = try AES.KeyWrap.wrap(contentKey, using: decryptionKey)
        let header = Self.base64URL(Array(jweHeader.utf8))
        let box = try AES.GCM.seal(
            Array((try jws() + afterJWS).utf8), using: contentKey, authenticating: Array(header.utf8))
        return [header, Self.base64URL(Array(wrapped))]
            + [Array(box.nonce), Array(box.ciphertext), Array(box.tag)].map(Self.base64URL)
    }

    func token() throws -> String { try jweParts().joined(separator: ".") }

    func verify(_ token: String? = nil, policy: PlayIntegrityPolicy = .init(), at time: Date? = nil) throws
        -> PlayIntegrityVerdict
    {
        try verifier(policy: policy).verify(token ?? self.token(), nonce: Self.nonce, at: time ?? Self.referenceTime)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
