import DeviceIntegrity
import Foundation
import Testing

/// One test per reason a correctly signed and encrypted verdict is refused.
@Suite("Play Integrity: one test per verdict rejection")
struct PlayIntegrityVerdictRejectionTests {
    let maker = TestPlayIntegrity()

    @Test func staleTimestamp() {
        let late = TestPlayIntegrity.referenceTime + 291
        expectPlayRejection(.stale) { _ = try maker.verify(at: late) }
    }

    @Test func timestampInTheFuture() {
        let early = TestPlayIntegrity.referenceTime - 41
        expectPlayRejection(.stale) { _ = try maker.verify(at: early) }
    }

    @Test func exactlyTheMaximumAgeOrSkewIsAccepted() throws {
        // The verdict's timestamp is 10 s before the reference time; the policy allows 300 s of age, 30 of skew.
        _ = try maker.verify(at: TestPlayIntegrity.referenceTime + 290)
        _ = try maker.verify(at: TestPlayIntegrity.referenceTime - 40)
    }

    @Test func aShorterMaximumAge() {
        var policy = PlayIntegrityPolicy()
        policy.maximumAge = .seconds(5)
        expectPlayRejection(.stale) { _ = try maker.verify(policy: policy) }
    }

    @Test func requestPackageMismatch() {
        var maker = self.maker
        maker.set("requestDetails", "requestPackageName", "com.example.other")
        expectPlayRejection(.wrongPackage) { _ = try maker.verify() }
    }

    @Test func appPackageMismatch() {
        var maker = self.maker
        maker.set("appIntegrity", "packageName", "com.example.other")
        expectPlayRejection(.wrongPackage) { _ = try maker.verify() }
    }

    @Test func certificateDigestMismatch() {
        var maker = self.maker
        maker.set("appIntegrity", "certificateSha256Digest", ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"])
        expectPlayRejection(.wrongCertificate) { _ = try maker.verify() }
    }

    @Test func nonceMismatch() {
        var maker = self.maker
        maker.set("requestDetails", "nonce", "b3RoZXItbm9uY2U")
        expectPlayRejection(.nonceMismatch) { _ = try maker.verify() }
    }

    @Test func noNonceAtAll() {
        var maker = self.maker
        maker.set("requestDetails", "nonce", nil)
        expectPlayRejection(.nonceMismatch) { _ = try maker.verify() }
    }

    @Test func appNotRecognized() {
        var maker = self.maker
        maker.set("appIntegrity", "appRecognitionVerdict", "UNRECOGNIZED_VERSION")
        expectPlayRejection(.appNotRecognized) { _ = try maker.verify() }
    }

    @Test func appUnevaluated() {
        var maker = self.maker
        maker.payload["appIntegrity"] = ["appRecognitionVerdict": "UNEVALUATED"]
        expectPlayRejection(.appNotRecognized) { _ = try maker.verify() }
    }

    @Test func deviceIntegrityBelowPolicy() {
        var maker = self.maker
        maker.set("deviceIntegrity", "deviceRecognitionVerdict", ["MEETS_BASIC_INTEGRITY"])
        expectPlayRejection(.deviceIntegrity) { _ = try maker.verify() }
    }

    @Test func noDeviceVerdict() {
        var maker = self.maker
        maker.payload["deviceIntegrity"] = [String: Any]()
        expectPlayRejection(.deviceIntegrity) { _ = try maker.verify() }
    }

    @Test func unlicensedWhenLicensingIsRequired() throws {
        var maker = self.maker
        maker.set("accountDetails", "appLicensingVerdict", "UNLICENSED")
        _ = try maker.verify()
        var policy = PlayIntegrityPolicy()
        policy.licensingVerdicts = ["LICENSED"]
        expectPlayRejection(.licensing) { _ = try maker.verify(policy: policy) }
    }
}
