import Crypto
import DeviceIntegrity
import Foundation
import Testing

/// Attestations made with a test CA, for what the real samples cannot show.
@Suite("App Attest: attestations from a test CA")
struct AppAttestSyntheticTests {
    @Test func aFreshAttestationAndItsAssertionsVerify() async throws {
        let device = try TestAppAttest()
        let attested = try await device.verifyAttestation()
        #expect(attested.keyID == device.keyID)
        #expect(attested.publicKey.rawRepresentation == device.deviceKey.publicKey.rawRepresentation)
        let verifier = try device.verifier()
        let first = try verifier.verifyAssertion(
            device.assertion(counter: 1), publicKey: attested.publicKey, clientDataHash: device.clientDataHash,
            previousCounter: 0, app: device.app)
        let second = try verifier.verifyAssertion(
            device.assertion(counter: 7), publicKey: attested.publicKey, clientDataHash: device.clientDataHash,
            previousCounter: first, app: device.app)
        #expect((first, second) == (1, 7))
    }

    @Test func extensionBytesWithoutTheEDFlagAreAccepted() async throws {
        var device = try TestAppAttest()
        device.unflaggedTrailingBytes = [0xA1, 0x01, 0x02]
        _ = try await device.verifyAttestation()
    }

    @Test func productionAAGUID() async throws {
        var device = try TestAppAttest()
        device.environment = .production
        #expect(try await device.verifyAttestation().environment == .production)
    }

    @Test func counterNotZero() async throws {
        var device = try TestAppAttest()
        device.counter = 1
        await expectRejection(.counterNotZero) { _ = try await device.verifyAttestation() }
    }

    @Test func credentialIDIsNotTheKeyID() async throws {
        var device = try TestAppAttest()
        device.credentialID = Array(repeating: 7, count: 32)
        await expectRejection(.keyIDMismatch) { _ = try await device.verifyAttestation() }
    }

    @Test func theCertifiedKeyIsNotTheKeyID() async throws {
        var device = try TestAppAttest()
        device.certifiedKey = P256.Signing.PrivateKey().publicKey
        await expectRejection(.keyIDMismatch) { _ = try await device.verifyAttestation() }
    }

    @Test func aChainOfAtMostFourCertificates() async throws {
        var device = try TestAppAttest()
        device.intermediates = 3
        _ = try await device.verifyAttestation()
        device.intermediates = 4
        await expectRejection(.malformed) { _ = try await device.verifyAttestation() }
    }

    @Test func leafNotYetValid() async throws {
        let device = try TestAppAttest()
        await expectRejection(.chainInvalid) {
            _ = try await device.verifier().verifyAttestation(
                try device.attestation(), keyID: device.keyID, clientDataHash: device.clientDataHash,
                at: TestAppAttest.referenceTime - 2 * 86_400)
        }
    }

    @Test func theAppleRootRefusesATestChain() async throws {
        let device = try TestAppAttest()
        let verifier = try AppAttestVerifier(apps: [device.app], environment: .development)
        await expectRejection(.chainInvalid) { _ = try await device.verifyAttestation(verifier) }
    }

    @Test func unusableConfiguration() async {
        let app = AppAttestApp(teamID: "TEAM123456", bundleID: "com.example")
        await expectRejection(.invalidConfiguration) {
            _ = try AppAttestVerifier(apps: [], environment: .production)
        }
        await expectRejection(.invalidConfiguration) {
            _ = try AppAttestVerifier(apps: [app], environment: .production, rootCertificatePEMs: ["not a PEM"])
        }
        await expectRejection(.invalidConfiguration) {
            _ = try AppAttestVerifier(apps: [app], environment: .production, rootCertificatePEMs: [])
        }
    }
}
