import ByteEncoding
import Foundation

extension PlayIntegrityVerifier {
    /// The configured app named by both package names, signed with one of its certificates.
    func matchingApp(_ payload: PlayIntegrityPayload) throws(PlayIntegrityError) -> PlayIntegrityApp {
        let requested = payload.requestDetails.requestPackageName
        guard let app = apps.first(where: { $0.packageName == requested }) else { throw .wrongPackage }
        guard let packageName = payload.appIntegrity.packageName else {
            // Play leaves out the app's details when it could not evaluate it.
            throw policy.appRecognitionVerdicts.contains(payload.appIntegrity.appRecognitionVerdict)
                ? .wrongPackage : .appNotRecognized
        }
        guard packageName == requested else { throw .wrongPackage }
        let reported = Set((payload.appIntegrity.certificateSha256Digest ?? []).map(Base64URL.unpadded))
        guard app.certificateDigests.contains(where: { reported.contains(Base64URL.unpadded($0)) }) else {
            throw .wrongCertificate
        }
        return app
    }

    func checkNonce(_ details: PlayIntegrityPayload.RequestDetails, _ nonce: String) throws(PlayIntegrityError) {
        let expected = Array(nonce.utf8)
        let candidates = [details.nonce, details.requestHash].compactMap { $0 }
        guard candidates.contains(where: { ConstantTime.equals(Array($0.utf8), expected) }) else {
            throw .nonceMismatch
        }
    }

    func checkTimestamp(_ timestamp: Date, at time: Date) throws(PlayIntegrityError) {
        let age = time.timeIntervalSince(timestamp)
        guard age <= policy.maximumAge.timeInterval, -age <= policy.maximumClockSkew.timeInterval else {
            throw .stale
        }
    }

    func checkVerdicts(_ payload: PlayIntegrityPayload) throws(PlayIntegrityError) {
        guard policy.appRecognitionVerdicts.contains(payload.appIntegrity.appRecognitionVerdict) else {
            throw .appNotRecognized
        }
        let device = payload.deviceIntegrity?.deviceRecognitionVerdict ?? []
        guard device.contains(policy.requiredDeviceRecognitionVerdict) else { throw .deviceIntegrity }
        if let accepted = policy.licensingVerdicts {
            guard let verdict = payload.accountDetails?.appLicensingVerdict, accepted.contains(verdict) else {
                throw .licensing
            }
        }
    }
}

extension PlayIntegrityVerdict {
    init(_ payload: PlayIntegrityPayload, app: PlayIntegrityApp) {
        self.init(
            app: app, requestPackageName: payload.requestDetails.requestPackageName,
            nonce: payload.requestDetails.nonce, requestHash: payload.requestDetails.requestHash,
            timestamp: payload.requestDetails.timestampMillis.date,
            appRecognitionVerdict: payload.appIntegrity.appRecognitionVerdict,
            certificateSha256Digests: payload.appIntegrity.certificateSha256Digest ?? [],
            versionCode: payload.appIntegrity.versionCode,
            deviceRecognitionVerdicts: payload.deviceIntegrity?.deviceRecognitionVerdict ?? [],
            appLicensingVerdict: payload.accountDetails?.appLicensingVerdict)
    }
}
