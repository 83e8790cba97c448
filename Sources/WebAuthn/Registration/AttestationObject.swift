import CBOR

/// The CBOR attestation object (WebAuthn L3 §6.5): format, statement and authenticator data.
struct AttestationObject: Sendable {
    let format: String
    let statement: CBORValue
    let authenticatorData: AuthenticatorData

    private static let decoder = CBORDecoder(maximumDepth: 8, maximumLength: 65_536)

    init(bytes: [UInt8]) throws(WebAuthnError) {
        // A value that is not a map answers nil for every key, so it is refused here too.
        guard let value = try? Self.decoder.decode(bytes), let format = value["fmt"]?.text,
            let statement = value["attStmt"], statement.mapEntries != nil,
            let authData = value["authData"]?.bytes
        else {
            throw WebAuthnError(.malformedAttestationObject, "the attestation object lacks fmt, attStmt or authData")
        }
        self.format = format
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(bytes: authData)
    }
}
