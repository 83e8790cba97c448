import CBOR
import WebAuthn

/// An App Attest assertion: `{signature, authenticatorData}`, decoded.
struct AppAttestAssertion: Sendable {
    let signature: [UInt8]
    let authenticatorData: AuthenticatorData

    private static let decoder = CBORDecoder(maximumDepth: 4, maximumLength: 4096)

    init(bytes: [UInt8]) throws(AppAttestError) {
        // A value that is not a map answers nil for every key, so it is refused here too.
        guard let value = try? Self.decoder.decode(bytes), let signature = value["signature"]?.bytes,
            let authData = value["authenticatorData"]?.bytes,
            let authenticatorData = try? AuthenticatorData(bytes: authData, accepting: .appAttest)
        else {
            throw .malformed
        }
        self.signature = signature
        self.authenticatorData = authenticatorData
    }
}
