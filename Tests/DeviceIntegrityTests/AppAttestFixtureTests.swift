import DeviceIntegrity
import Foundation
import Testing

/// Every real device sample verifies at its own time, and not once its credential certificate has expired.
@Suite("App Attest: real devices")
struct AppAttestFixtureTests {
    @Test(arguments: AppAttestFixture.names)
    func attestationAndAssertionVerify(_ name: String) async throws {
        let fixture = try AppAttestFixture.load(name)
        let verifier = try fixture.verifier()
        let attested = try await verifier.verifyAttestation(
            fixture.attestation, keyID: fixture.keyID, clientDataHash: fixture.clientDataHash, at: fixture.attestedAt)
        #expect(attested.app == fixture.app)
        #expect(attested.environment == fixture.environment)
        #expect(attested.counter == 0)
        #expect(!attested.receipt.isEmpty)
        #expect(attested.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let counter = try verifier.verifyAssertion(
            fixture.assertion, publicKey: attested.publicKey, clientDataHash: fixture.clientDataHash,
            previousCounter: 0, app: fixture.app)
        #expect(counter == fixture.assertionCounter)
    }

    @Test(arguments: AppAttestFixture.names)
    func attestationFailsADayAfterTheLeafExpires(_ name: String) async throws {
        let fixture = try AppAttestFixture.load(name)
        let expired = try fixture.leafCertificate().notValidAfter.addingTimeInterval(86_400)
        await expectRejection(.chainInvalid) {
            _ = try await fixture.verifier().verifyAttestation(
                fixture.attestation, keyID: fixture.keyID, clientDataHash: fixture.clientDataHash, at: expired)
        }
    }
}
