import ByteEncoding
import DeviceIntegrity
import Foundation

extension HaleServices {
    /// App Attest for the apps of `apps.apple`; nil without any.
    static func appAttestVerifier(_ configuration: HaleConfiguration) throws -> AppAttestVerifier? {
        let apps = try appAttestApps(configuration)
        guard !apps.isEmpty else { return nil }
        do {
            return try AppAttestVerifier(
                apps: apps, environment: try appAttestEnvironment(configuration),
                rootCertificatePEMs: appAttestRootPEMs(configuration))
        } catch {
            throw ConfigError("appAttest.rootCertificate must be a PEM certificate")
        }
    }

    /// Development attestation when `appAttest.developmentMode` is on; nil otherwise.
    static func developmentAttestation(
        _ configuration: HaleConfiguration, database: HaleDatabase, sealer: SecretSealer?, clock: HaleClock
    ) throws -> DevelopmentAttestation? {
        guard configuration.health.appAttestDevelopmentMode else { return nil }
        let environment = try appAttestEnvironment(configuration)
        // Development credentials attest as the first configured app: for production apps that would let anyone
        // who can sign in submit "attested" data as the real app, so the two cannot be on together.
        guard environment == .development || configuration.apps.apple.isEmpty else {
            throw ConfigError(
                "appAttest.developmentMode cannot be on while apps.apple attest in production: "
                    + "set appAttest.environment to development, or leave apps.apple empty")
        }
        let roots = appAttestRootPEMs(configuration)
        // A root that is not a PEM stops Hale here, at start-up, not at the first attestation.
        guard
            (try? AppAttestVerifier(
                apps: [DevelopmentAttestation.developmentApp], environment: environment,
                rootCertificatePEMs: roots)) != nil
        else {
            throw ConfigError("appAttest.rootCertificate must be a PEM certificate")
        }
        return DevelopmentAttestation(
            apps: try appAttestApps(configuration), environment: environment, rootPEMs: roots,
            repository: SQLDevelopmentAuthorityRepository(database: database), sealer: sealer, clock: clock)
    }

    private static func appAttestApps(_ configuration: HaleConfiguration) throws -> [AppAttestApp] {
        try configuration.apps.apple.map { entry in
            guard let dot = entry.firstIndex(of: "."), dot != entry.startIndex,
                entry.index(after: dot) != entry.endIndex
            else {
                throw ConfigError("apps.apple entries must be TEAMID.bundle.id, not \"\(entry)\"")
            }
            return AppAttestApp(teamID: String(entry[..<dot]), bundleID: String(entry[entry.index(after: dot)...]))
        }
    }

    private static func appAttestEnvironment(_ configuration: HaleConfiguration) throws -> AppAttestEnvironment {
        guard let environment = AppAttestEnvironment(rawValue: configuration.health.appAttestEnvironment) else {
            throw ConfigError("appAttest.environment must be production or development")
        }
        return environment
    }

    private static func appAttestRootPEMs(_ configuration: HaleConfiguration) -> [String] {
        let configured = configuration.health.appAttestRootCertificate
        return configured.isEmpty ? [AppAttestVerifier.appleRootPEM] : [configured]
    }

    /// Play Integrity for the apps of `apps.android`; nil until its keys are configured.
    static func playIntegrityVerifier(_ configuration: HaleConfiguration) throws -> PlayIntegrityVerifier? {
        let health = configuration.health
        guard !health.playIntegrityDecryptionKey.isEmpty || !health.playIntegrityVerificationKey.isEmpty else {
            return nil
        }
        let apps = configuration.apps.android.map {
            PlayIntegrityApp(
                packageName: $0.packageName, certificateDigests: [Self.playDigest($0.certificateFingerprint)])
        }
        var policy = PlayIntegrityPolicy()
        policy.appRecognitionVerdicts = Set(health.appRecognitionVerdicts)
        policy.requiredDeviceRecognitionVerdict = health.deviceRecognitionVerdict
        policy.licensingVerdicts = health.licensingVerdicts.isEmpty ? nil : Set(health.licensingVerdicts)
        policy.maximumAge = health.playIntegrityMaximumAge
        do {
            return try PlayIntegrityVerifier(
                decryptionKey: health.playIntegrityDecryptionKey, verificationKey: health.playIntegrityVerificationKey,
                apps: apps, policy: policy)
        } catch {
            throw ConfigError(
                "playIntegrity.decryptionKey and verificationKey must be Play Console's base64 keys, with apps.android set"
            )
        }
    }

    /// Play reports a signing certificate as base64url of its SHA-256, not as colon-separated hex.
    static func playDigest(_ fingerprint: String) -> String {
        let hex = fingerprint.replacingOccurrences(of: ":", with: "")
        let bytes = stride(from: 0, to: hex.count, by: 2).compactMap { offset -> UInt8? in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
        }
        return Base64URL.encode(bytes)
    }
}
