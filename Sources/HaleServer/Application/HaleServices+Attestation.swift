import DeviceIntegrity
import Foundation
import WebAuthn

extension HaleServices {
    /// App Attest for the apps of `apps.apple`; nil without any.
    static func appAttestVerifier(_ configuration: HaleConfiguration) throws -> AppAttestVerifier? {
        let apps = try configuration.apps.apple.map { entry in
            guard let dot = entry.firstIndex(of: "."), dot != entry.startIndex,
                entry.index(after: dot) != entry.endIndex
            else {
                throw ConfigError("apps.apple entries must be TEAMID.bundle.id, not \"\(entry)\"")
            }
            return AppAttestApp(teamID: String(entry[..<dot]), bundleID: String(entry[entry.index(after: dot)...]))
        }
        guard !apps.isEmpty else { return nil }
        let health = configuration.health
        guard let environment = AppAttestEnvironment(rawValue: health.appAttestEnvironment) else {
            throw ConfigError("appAttest.environment must be production or development")
        }
        let roots =
            health.appAttestRootCertificate.isEmpty
            ? [AppAttestVerifier.appleRootPEM] : [health.appAttestRootCertificate]
        do {
            return try AppAttestVerifier(apps: apps, environment: environment, rootCertificatePEMs: roots)
        } catch {
            throw ConfigError("appAttest.rootCertificate must be a PEM certificate")
        }
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
