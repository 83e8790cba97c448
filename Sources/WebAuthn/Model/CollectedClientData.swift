import Foundation

/// `clientDataJSON` (WebAuthn L3 §5.8.1), parsed. Members Hale does not know are ignored, as the spec requires.
public struct CollectedClientData: Sendable, Decodable {
    /// `webauthn.create` or `webauthn.get`.
    public let type: String
    /// The challenge, base64url-encoded by the client.
    public let challenge: String
    /// The origin of the page or app that ran the ceremony.
    public let origin: String
    /// Whether it ran in a cross-origin frame.
    public let crossOrigin: Bool?
    /// The top-level origin, when it ran in a frame.
    public let topOrigin: String?

    private static let decoder = JSONDecoder()

    /// Parses the JSON bytes.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        do {
            self = try Self.decoder.decode(Self.self, from: Data(bytes))
        } catch {
            throw WebAuthnError(.malformedClientData, "clientDataJSON is not valid client data")
        }
    }

    /// Checks type, challenge, origin and frame (§7.1 steps 7–10, §7.2 steps 11–14).
    func verify(type expectedType: String, challenge expected: [UInt8], origins: Set<String>) throws(WebAuthnError) {
        guard type == expectedType else {
            throw WebAuthnError(.wrongCeremonyType, "clientDataJSON.type is \(type), expected \(expectedType)")
        }
        guard let received = Base64URL.decode(challenge), ConstantTime.equals(Array(received), expected) else {
            throw WebAuthnError(.challengeMismatch, "the challenge is not the one issued")
        }
        guard origins.contains(origin) else {
            throw WebAuthnError(.originNotAllowed, "the origin \(origin) is not allowed")
        }
        guard crossOrigin != true, topOrigin == nil || topOrigin == origin else {
            throw WebAuthnError(.crossOriginNotAllowed, "ceremonies in cross-origin frames are not allowed")
        }
    }
}

/// Comparison whose time depends only on the lengths of its inputs.
enum ConstantTime {
    static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
