import Crypto
import Foundation
import SwiftASN1
import X509

/// An App Attest device in software: P-256 keys, attestations whose credential certificates it issues itself as an
/// App Attest intermediate CA, and assertions, in Apple's formats.
///
/// Against a server in development attestation mode, `HaleClient.developmentAppAttester()` builds one from the
/// intermediate certificate the server issues. Tests build one with a CA of its own and give the server its root.
public final class SoftwareAppAttester: AppAttester {
    /// The App Attest environment an attester claims; it selects the AAGUID of its attestations.
    public enum Environment: String, Sendable, CaseIterable {
        /// `appattestdevelop`, as apps built for development attest.
        case development
        /// `appattest` and seven zeros, as App Store, TestFlight and enterprise builds attest.
        case production

        var aaguid: [UInt8] {
            switch self {
            case .development: Array("appattestdevelop".utf8)
            case .production: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
            }
        }
    }

    /// The team id of the app it attests as.
    public let teamID: String
    /// The bundle id of the app it attests as.
    public let bundleID: String
    /// The environment it attests in.
    public let environment: Environment
    /// The root certificate its chains lead to.
    public let rootCertificate: Certificate
    let intermediate: Certificate
    let intermediateKey: P256.Signing.PrivateKey
    let keys: SoftwareAppAttestKeys
    /// The key a self-made attester starts with, which HaleTesting's synchronous helpers use; nil otherwise.
    package let preparedKey: P256.Signing.PrivateKey?

    /// An attester that issues credential certificates as the intermediate CA `certificate` (DER), whose key is
    /// `intermediateKey`, under `rootCertificate` (DER), for the app `appID` (`TEAMID.bundle.id`) in `environment`:
    /// what `POST /health/development-attestation` returns.
    public convenience init(
        intermediateKey: P256.Signing.PrivateKey, certificate: Data, rootCertificate: Data, appID: String,
        environment: Environment
    ) throws {
        let intermediate: Certificate
        let root: Certificate
        do {
            intermediate = try Certificate(derEncoded: Array(certificate))
            root = try Certificate(derEncoded: Array(rootCertificate))
        } catch {
            throw SoftwareAppAttesterError.invalidCredential
        }
        guard
            P256.Signing.PublicKey(intermediate.publicKey)?.x963Representation
                == intermediateKey.publicKey.x963Representation
        else {
            throw SoftwareAppAttesterError.invalidCredential
        }
        let (teamID, bundleID) = try Self.split(appID)
        self.init(
            teamID: teamID, bundleID: bundleID, environment: environment, root: root, intermediate: intermediate,
            intermediateKey: intermediateKey, preparedKey: nil)
    }

    /// An attester with a root and intermediate CA of its own, for tests: give the server `rootPEM` as
    /// `appAttest.rootCertificate`. It starts with one key already made.
    public convenience init(
        teamID: String = "TEAM123456", bundleID: String = "com.example.health",
        environment: Environment = .development
    ) throws {
        let authority = try SelfMadeAuthority()
        self.init(
            teamID: teamID, bundleID: bundleID, environment: environment, root: authority.root,
            intermediate: authority.intermediate, intermediateKey: authority.intermediateKey,
            preparedKey: P256.Signing.PrivateKey())
    }

    private init(
        teamID: String, bundleID: String, environment: Environment, root: Certificate, intermediate: Certificate,
        intermediateKey: P256.Signing.PrivateKey, preparedKey: P256.Signing.PrivateKey?
    ) {
        self.teamID = teamID
        self.bundleID = bundleID
        self.environment = environment
        self.rootCertificate = root
        self.intermediate = intermediate
        self.intermediateKey = intermediateKey
        self.preparedKey = preparedKey
        keys = SoftwareAppAttestKeys(preparedKey.map { [$0] } ?? [])
    }

    /// `TEAMID.bundle.id`.
    public var appID: String { "\(teamID).\(bundleID)" }

    /// The root certificate, PEM.
    public var rootPEM: String {
        get throws { try rootCertificate.serializeAsPEM().pemString }
    }

    /// Creates a key; returns its identifier, the base64 SHA-256 of its public key.
    public func generateKey() async throws -> String {
        await keys.add(P256.Signing.PrivateKey())
    }

    /// Attests the key `keyID` with `clientDataHash`: an `apple-appattest` attestation object whose credential
    /// certificate this attester issues.
    public func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
        let key = try await keys.key(keyID)
        return Data(try attestationObject(for: key, clientDataHash: Array(clientDataHash)))
    }

    /// Signs `clientDataHash` with the key `keyID`; the first assertion of a key has counter 1.
    public func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data {
        let (key, counter) = try await keys.nextAssertion(keyID)
        return Data(try assertionObject(by: key, clientDataHash: Array(clientDataHash), counter: counter))
    }

    private static func split(_ appID: String) throws -> (String, String) {
        guard let dot = appID.firstIndex(of: "."), dot != appID.startIndex, appID.index(after: dot) != appID.endIndex
        else {
            throw SoftwareAppAttesterError.invalidAppID
        }
        return (String(appID[..<dot]), String(appID[appID.index(after: dot)...]))
    }
}
