import CBOR
import WebAuthn
import X509

/// An App Attest attestation object: `{fmt, attStmt: {x5c, receipt}, authData}`, decoded.
struct AppAttestObject: Sendable {
    static let format = "apple-appattest"

    let certificates: [Certificate]
    let receipt: [UInt8]
    let authenticatorData: AuthenticatorData

    private static let decoder = CBORDecoder(maximumDepth: 8, maximumLength: 65_536)

    init(bytes: [UInt8]) throws(AppAttestError) {
        // A value that is not a map answers nil for every key, so it is refused here too.
        guard let value = try? Self.decoder.decode(bytes), let format = value["fmt"]?.text else {
            throw .malformed
        }
        guard format == Self.format else { throw .wrongFormat }
        guard let statement = value["attStmt"], let receipt = statement["receipt"]?.bytes,
            let chain = statement["x5c"]?.array, (1...4).contains(chain.count), let authData = value["authData"]?.bytes,
            let authenticatorData = try? AuthenticatorData(bytes: authData, accepting: .appAttest)
        else {
            throw .malformed
        }
        certificates = try Self.certificates(chain)
        self.receipt = receipt
        self.authenticatorData = authenticatorData
    }

    private static func certificates(_ items: [CBORValue]) throws(AppAttestError) -> [Certificate] {
        var certificates: [Certificate] = []
        for item in items {
            guard let der = item.bytes, let certificate = try? Certificate(derEncoded: der) else {
                throw .chainInvalid
            }
            certificates.append(certificate)
        }
        return certificates
    }
}
