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
        try self.init(bytes: bytes, accepting: [])
    }

    /// Parses authenticator data, accepting the departures from the layout in `quirks` and no others.
    public init(bytes: [UInt8], accepting quirks: AuthenticatorDataQuirks) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw Self.malformed("authenticator data is shorter than 37 bytes") }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = AuthenticatorFlags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        attestedCredentialData = try Self.credentialData(bytes, flags: flags, quirks: quirks, offset: &offset)
        extensions = try Self.extensions(bytes, flags: flags, offset: &offset)
        let unflaggedTail = quirks.contains(.unflaggedTrailingBytes) && !flags.contains(.extensionData)
        guard offset == bytes.count || unflaggedTail else {
            throw Self.malformed("authenticator data has trailing bytes")
        }
    }

    private static func credentialData(
        _ bytes: [UInt8], flags: AuthenticatorFlags, quirks: AuthenticatorDataQuirks, offset: inout Int
    ) throws(WebAuthnError) -> AttestedCredentialData? {
        guard flags.contains(.attestedCredentialData) else { return nil }
        if bytes.count == 37 && quirks.contains(.attestedFlagWithoutData) { return nil }
        let (data, length) = try AttestedCredentialData.parse(bytes[offset...])
        offset += length
        return data
    }

    private static func extensions(
        _ bytes: [UInt8], flags: AuthenticatorFlags, offset: inout Int
    ) throws(WebAuthnError) -> CBORValue? {
        guard flags.contains(.extensionData) else { return nil }
        guard let (value, length) = try? decoder.decodePrefix(bytes[offset...]) else {
            throw malformed("the extension data is not valid CBOR")
        }
        offset += length
        return value
    }

    static func malformed(_ message: String) -> WebAuthnError {
        WebAuthnError(.malformedAuthenticatorData, message)
    }
}
