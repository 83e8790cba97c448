import CBOR

/// Authenticator data (WebAuthn L3 §6.1): the bytes an authenticator signs over, parsed.
public struct AuthenticatorData: Sendable {
    /// The bytes exactly as received; signatures are verified over these, never over a re-encoding.
    public let bytes: [UInt8]
    /// SHA-256 of the RP ID the credential is scoped to.
    public let rpIDHash: [UInt8]
    /// The flags.
    public let flags: AuthenticatorFlags
    /// The signature counter.
    public let signCount: UInt32
    /// The new credential, present at registration.
    public let attestedCredentialData: AttestedCredentialData?
    /// Authenticator extension outputs, when the ED flag is set.
    public let extensions: CBORValue?

    private static let decoder = CBORDecoder(maximumDepth: 8, maximumLength: 16_384)

    /// Parses authenticator data; rejects truncation and bytes left over after what the flags announce.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw Self.malformed("authenticator data is shorter than 37 bytes") }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = AuthenticatorFlags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            let (data, length) = try AttestedCredentialData.parse(bytes[offset...])
            attestedCredentialData = data
            offset += length
        } else {
            attestedCredentialData = nil
        }
        if flags.contains(.extensionData) {
            let remaining = bytes[offset...]
            guard let (value, length) = try? Self.decoder.decodePrefix(remaining) else {
                throw Self.malformed("the extension data is not valid CBOR")
            }
            extensions = value
            offset += length
        } else {
            extensions = nil
        }
        guard offset == bytes.count else { throw Self.malformed("authenticator data has trailing bytes") }
    }

    static func malformed(_ message: String) -> WebAuthnError {
        WebAuthnError(.malformedAuthenticatorData, message)
    }
}
