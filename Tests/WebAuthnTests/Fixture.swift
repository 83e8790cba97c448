import ByteEncoding
import Foundation
import Testing
import X509

@testable import WebAuthn

/// One vector from `Fixtures/`, normalised: base64url members, challenge bytes, trust anchors and time.
struct Fixture: CustomTestStringConvertible, Sendable {
    let name: String
    let kind: String
    let format: String?
    let responseJSON: Data
    let challenge: [UInt8]
    let origin: String
    let rpID: String
    let requireUserVerification: Bool
    let rootsPEM: [String]
    let verifyAt: Date
    let credentialPublicKey: String?
    let previousSignCount: UInt32
    /// Whether the source checked the SafetyNet response's `timestampMs`; where it did not, neither can we.
    let checksSafetyNetTimestamp: Bool
    let expected: [String: any Sendable]

    var testDescription: String { name }

    /// Where no time is pinned, a time inside every certificate's validity that never changes.
    static let defaultTime = Date(timeIntervalSince1970: 1_704_067_200)

    static func all(kind: String) throws -> [Fixture] {
        guard let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else { return [] }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        return try files.sorted().map { try Fixture(url: folder.appendingPathComponent($0)) }.filter { $0.kind == kind }
    }

    static func named(_ name: String) throws -> Fixture {
        guard let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Fixture(url: folder.appendingPathComponent(name + ".json"))
    }

    init(url: URL) throws {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        name = url.deletingPathExtension().lastPathComponent
        kind = object["kind"] as? String ?? ""
        format = object["fmt"] as? String
        let isHex = object["encoding"] as? String == "hex"
        var response = object["response"] as? [String: Any] ?? [:]
        if isHex { response = Self.hexToBase64URL(response) }
        responseJSON = try JSONSerialization.data(withJSONObject: response)
        challenge = try Self.challenge(object)
        // Where the source test checked no origin or RP ID, use the ones the client actually signed.
        origin = object["expectedOrigin"] as? String ?? object["observedOrigin"] as? String ?? ""
        rpID = object["expectedRPID"] as? String ?? object["observedRPID"] as? String ?? ""
        requireUserVerification = object["requireUserVerification"] as? Bool ?? false
        rootsPEM = object["rootCertificatesPEM"] as? [String] ?? []
        verifyAt = (object["verifyAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) } ?? Self.defaultTime
        credentialPublicKey = object["credentialPublicKey"] as? String
        previousSignCount = UInt32(object["previousSignCount"] as? Int ?? 0)
        checksSafetyNetTimestamp = object["verifySafetyNetTimestamp"] as? Bool ?? true
        var expected: [String: any Sendable] = [:]
        for key in ["expectedSignCount", "expectedCredentialID", "expectedAAGUID"] {
            if let value = object[key] as? Int { expected[key] = value }
            if let value = object[key] as? String { expected[key] = isHex ? Self.hexToBase64URL(value) : value }
        }
        self.expected = expected
    }

    var relyingParty: RelyingParty {
        get throws { try RelyingParty(id: rpID, name: "Test", origins: [origin]) }
    }

    var trustAnchors: [Certificate] {
        get throws { try rootsPEM.map { try Certificate(pemEncoded: $0) } }
    }

    /// The fixture's roots, with SafetyNet's timestamp window turned off where the source turned it off.
    var policy: AttestationPolicy {
        get throws {
            AttestationPolicy(
                trustAnchors: try trustAnchors, safetyNetTimestampWindow: checksSafetyNetTimestamp ? 60 : nil)
        }
    }

    func registration() throws -> RegistrationResponseJSON {
        try JSONDecoder().decode(RegistrationResponseJSON.self, from: responseJSON)
    }

    func authentication() throws -> AuthenticationResponseJSON {
        try JSONDecoder().decode(AuthenticationResponseJSON.self, from: responseJSON)
    }

    private static func challenge(_ object: [String: Any]) throws -> [UInt8] {
        switch object["challengeEncoding"] as? String {
        case "base64url-bytes":
            return Array(Base64URL.decode(object["expectedChallenge"] as? String ?? "") ?? Data())
        case "utf8-string":
            return Array((object["expectedChallenge"] as? String ?? "").utf8)
        case "hex-bytes":
            return Hex.decode(object["expectedChallenge"] as? String ?? "") ?? []
        default:
            // The source checked the challenge with its own function; use what the client signed.
            return Array(Base64URL.decode(object["clientDataChallenge"] as? String ?? "") ?? Data())
        }
    }

    private static func hexToBase64URL(_ response: [String: Any]) -> [String: Any] {
        response.mapValues { value -> Any in
            if let nested = value as? [String: Any] { return hexToBase64URL(nested) }
            if let text = value as? String, let bytes = Hex.decode(text), !bytes.isEmpty {
                return Base64URL.encode(bytes)
            }
            return value
        }
    }

    private static func hexToBase64URL(_ text: String) -> String {
        Hex.decode(text).map { Base64URL.encode($0) } ?? text
    }
}
