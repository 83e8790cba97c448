import ByteEncoding
import Crypto
import Foundation
import X509

/// Verifies Apple App Attest attestations and assertions, as "Validating apps that connect to your server" says.
///
/// Pure: the time to verify at and the trust anchors are parameters; storing keys and counters is the caller's.
public struct AppAttestVerifier: Sendable {
    /// The apps whose keys are accepted.
    public let apps: [AppAttestApp]
    /// The environment attestations must come from.
    public let environment: AppAttestEnvironment
    /// The roots attestation chains must lead to.
    let roots: [Certificate]

    /// A verifier for `apps` in `environment`. Throws ``AppAttestError/invalidConfiguration`` when `apps` is empty
    /// or a root is not a PEM certificate; tests pass their own roots.
    public init(
        apps: [AppAttestApp], environment: AppAttestEnvironment, rootCertificatePEMs: [String] = [appleRootPEM]
    ) throws {
        guard !apps.isEmpty, !rootCertificatePEMs.isEmpty else { throw AppAttestError.invalidConfiguration }
        var roots: [Certificate] = []
        for pem in rootCertificatePEMs {
            guard let root = try? Certificate(pemEncoded: pem) else { throw AppAttestError.invalidConfiguration }
            roots.append(root)
        }
        self.apps = apps
        self.environment = environment
        self.roots = roots
    }

    /// The configured app whose App ID hashes to `rpIDHash`.
    func app(forRPIDHash rpIDHash: [UInt8]) -> AppAttestApp? {
        apps.first { ConstantTime.equals($0.rpIDHash, rpIDHash) }
    }
}
