import ByteEncoding

/// `clientDataJSON` (WebAuthn L3 §5.8.1), parsed. Members Hale does not know are ignored, as the spec requires.
public struct CollectedClientData: Sendable {
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

    /// Parses the JSON bytes. `type`, `challenge` and `origin` must be present, and no member Hale reads may repeat.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard let members = try? ClientDataParser.members(of: bytes), let type = members.type,
            let challenge = members.challenge, let origin = members.origin
        else {
            throw WebAuthnError(.malformedClientData, "clientDataJSON is not valid client data")
        }
        self.type = type
        self.challenge = challenge
        self.origin = origin
        crossOrigin = members.crossOrigin
        topOrigin = members.topOrigin
    }

    /// Checks type, challenge, origin and frame (§7.1 steps 7–10, §7.2 steps 11–14).
    func verify(type expectedType: String, challenge expected: [UInt8], origins: Set<String>) throws(WebAuthnError) {
        guard type == expectedType else {
            throw WebAuthnError(.wrongCeremonyType, "clientDataJSON.type is \(type), expected \(expectedType)")
        }
        guard let received = Base64URL.bytes(challenge), ConstantTime.equals(received, expected) else {
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
