import CBOR
import Crypto
import DeviceIntegrity
import Foundation
import X509

/// The App Attest server the App Attest targets play: the apps and device key of the real attestations in
/// `Tests/DeviceIntegrityTests/Fixtures`, trusting Apple's root.
enum FuzzAppAttest {
    static let developmentApp = AppAttestApp(teamID: "6MURL8TA57", bundleID: "de.vincent-haupert.apple-appattest-poc")
    static let productionApp = AppAttestApp(teamID: "8YE23NZS57", bundleID: "com.kayak.travel")
    // Both initialisers throw only for an empty app list or an unreadable root, and Apple's root is built in.
    static let development = try! AppAttestVerifier(apps: [developmentApp, productionApp], environment: .development)
    static let production = try! AppAttestVerifier(apps: [developmentApp, productionApp], environment: .production)

    /// SHA-256 of the client data the fixtures' development devices signed.
    static let clientDataHash = Array(SHA256.hash(data: Array("wurzelpfropf".utf8)))

    /// The development fixtures' device key, which their assertions are signed with.
    // The PEM is a valid P-256 key, so parsing cannot fail.
    static let deviceKey = try! P256.Signing.PublicKey(
        pemRepresentation: """
            -----BEGIN PUBLIC KEY-----
            MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEiMA0oZCqfbxaBhUBxlQoA5QlghmL
            PxzFRnPKO5rSC0FSgmelT1/boEafr7RrtpkKOWvwT5SknUMgyBx6skCjmA==
            -----END PUBLIC KEY-----
            """)

    /// The verifier for the environment whose AAGUID the attestation's authenticator data names.
    static func verifier(for attestation: CBORValue?) -> AppAttestVerifier {
        let productionAAGUID = Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        guard let authData = attestation?["authData"]?.bytes, authData.count >= 53 else { return development }
        return authData[37..<53].elementsEqual(productionAAGUID) ? production : development
    }

    /// A minute after the leaf certificate's start: App Attest leaves live for days, and the fixtures are years old.
    static func verificationTime(for attestation: CBORValue?) -> Date {
        guard let leaf = attestation?["attStmt"]?["x5c"]?.array?.first?.bytes,
            let certificate = try? Certificate(derEncoded: leaf)
        else {
            return Date(timeIntervalSince1970: 1_611_403_213)
        }
        return certificate.notValidBefore.addingTimeInterval(60)
    }
}
