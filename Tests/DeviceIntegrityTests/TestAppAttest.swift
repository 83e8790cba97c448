import CBOR
import Crypto
import DeviceIntegrity
import Foundation
import SwiftASN1
import X509

/// A test App Attest CA (root, intermediate) and a device key, making attestations and assertions relative to a
/// fixed reference time, with any field set as a test needs.
struct TestAppAttest {
    static let referenceTime = Date(timeIntervalSince1970: 1_750_000_000)
    static let nonceOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 2]

    let rootKey = P256.Signing.PrivateKey()
    let intermediateKey = P256.Signing.PrivateKey()
    let deviceKey = P256.Signing.PrivateKey()
    let root: Certificate
    let intermediate: Certificate

    var app = AppAttestApp(teamID: "TEAM123456", bundleID: "com.example.health")
    var environment = AppAttestEnvironment.development
    var counter: UInt32 = 0
    var credentialID: [UInt8]?
    var unflaggedTrailingBytes: [UInt8] = []
    /// The key the leaf certificate certifies, when not the device key.
    var certifiedKey: P256.Signing.PublicKey?
    /// How many times the intermediate follows the leaf in `x5c`.
    var intermediates = 1
    let clientDataHash = Array(SHA256.hash(data: Array("nonce".utf8)))

    init() throws {
        let rootName = try DistinguishedName { CommonName("Test App Attestation Root CA") }
        let intermediateName = try DistinguishedName { CommonName("Test App Attestation CA 1") }
        root = try Self.caCertificate(
            subject: rootName, key: rootKey.publicKey, issuer: rootName, issuerKey: rootKey)
        intermediate = try Self.caCertificate(
            subject: intermediateName, key: intermediateKey.publicKey, issuer: rootName, issuerKey: rootKey)
    }

    var rootPEM: String { get throws { try root.serializeAsPEM().pemString } }
    var keyID: [UInt8] { Array(SHA256.hash(data: deviceKey.publicKey.x963Representation)) }

    func verifier() throws -> AppAttestVerifier {
        try AppAttestVerifier(apps: [app], environment: environment, rootCertificatePEMs: [rootPEM])
    }

    func verifyAttestation(_ verifier: AppAttestVerifier? = nil) async throws -> AppAttestAttestation {
        try await (verifier ?? self.verifier()).verifyAttestation(
            try attestation(), keyID: keyID, clientDataHash: clientDataHash, at: Self.referenceTime)
    }

    /// An assertion with `counter`, signed by the device key over SHA-256(authData ‖ clientDataHash).
    func assertion(counter: UInt32) throws -> [UInt8] {
        let authData = app.rpIDHashForTests + [0x40] + Self.bigEndian(counter)
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        let signature = try deviceKey.signature(for: nonce).derRepresentation
        return CBOREncoder().encode(
            .map([
                CBORMapEntry(key: .textString("signature"), value: .byteString(Array(signature))),
                CBORMapEntry(key: .textString("authenticatorData"), value: .byteString(authData)),
            ]))
    }
}
