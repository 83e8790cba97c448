import Crypto
import DeviceIntegrity
import Foundation
import X509

/// Issue 9's development attestation mode (`appAttest.developmentMode`): App Attest chains to this installation's
/// development CA are accepted as well as the configured root's, and a signed-in client may have a key of its own
/// certified as an intermediate CA under it, so a software attester can run the attested flow without a phone.
///
/// The CA is made once per database: every instance inserts one if none is stored and then uses the stored one, so
/// racing instances agree, and a restart finds the same root.
actor DevelopmentAttestation {
    /// What a client attests with: an intermediate certificate for its key, and what it must claim.
    struct Credential: Sendable {
        let certificate: [UInt8]
        let rootCertificate: [UInt8]
        let appID: String
        let environment: AppAttestEnvironment
        let expiresAt: Date
    }

    /// The app attested as when `apps.apple` is empty: a valid team id and bundle id that no real app has.
    static let developmentApp = AppAttestApp(teamID: "HALEDEVAPP", bundleID: "dev.hale.attestation")

    private let apps: [AppAttestApp]
    private let environment: AppAttestEnvironment
    private let rootPEMs: [String]
    private let repository: any DevelopmentAuthorityRepository
    private let sealer: SecretSealer?
    private let clock: HaleClock
    private var loaded: (authority: DevelopmentAttestationAuthority, verifier: AppAttestVerifier)?

    /// The mode for `apps` in `environment`, trusting `rootPEMs` besides the development root.
    init(
        apps: [AppAttestApp], environment: AppAttestEnvironment, rootPEMs: [String],
        repository: any DevelopmentAuthorityRepository, sealer: SecretSealer?, clock: HaleClock
    ) {
        self.sealer = sealer
        self.apps = apps.isEmpty ? [Self.developmentApp] : apps
        self.environment = environment
        self.rootPEMs = rootPEMs
        self.repository = repository
        self.clock = clock
    }

    /// Loads the CA, creating it if this installation has none yet.
    func prepare() async throws {
        _ = try await load()
    }

    /// The App Attest verifier: the configured roots and the development root.
    func verifier() async throws -> AppAttestVerifier {
        try await load().verifier
    }

    /// The development root certificate.
    func rootCertificate() async throws -> Certificate {
        try await load().authority.root
    }

    /// Certifies `publicKey` as an intermediate CA under the development root, for the first configured app.
    func credential(for publicKey: P256.Signing.PublicKey) async throws -> Credential {
        let authority = try await load().authority
        let now = clock.now()
        let intermediate = try authority.intermediate(for: publicKey, at: now)
        return Credential(
            certificate: try DevelopmentAttestationAuthority.der(intermediate),
            rootCertificate: try DevelopmentAttestationAuthority.der(authority.root), appID: apps[0].appID,
            environment: environment, expiresAt: intermediate.notValidAfter)
    }

    private func load() async throws -> (authority: DevelopmentAttestationAuthority, verifier: AppAttestVerifier) {
        if let loaded { return loaded }
        if try await repository.authority() == nil {
            let now = clock.now()
            try await repository.insertIfAbsent(
                try DevelopmentAttestationAuthority.make(at: now).record(at: now, sealer: sealer))
        }
        guard let record = try await repository.authority() else {
            throw ConfigError("the development attestation CA could not be stored")
        }
        let authority = try DevelopmentAttestationAuthority(record: record, sealer: sealer)
        let verifier = try AppAttestVerifier(
            apps: apps, environment: environment,
            rootCertificatePEMs: rootPEMs + [try authority.root.serializeAsPEM().pemString])
        let fresh = (authority, verifier)
        loaded = fresh
        return fresh
    }
}
