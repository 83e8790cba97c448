import CBOR
import DeviceIntegrity
import Foundation
import Testing

/// One test per reason a real attestation or assertion is refused, each a change to the iOS 14.4 sample.
@Suite("App Attest: one test per rejection")
struct AppAttestRejectionTests {
    let fixture: AppAttestFixture

    init() throws { fixture = try AppAttestFixture.load("ios-14.4.yaml") }

    func verifyAttestation(
        _ attestation: [UInt8]? = nil, keyID: [UInt8]? = nil, clientDataHash: [UInt8]? = nil,
        verifier: AppAttestVerifier? = nil
    ) async throws {
        _ = try await (verifier ?? fixture.verifier()).verifyAttestation(
            attestation ?? fixture.attestation, keyID: keyID ?? fixture.keyID,
            clientDataHash: clientDataHash ?? fixture.clientDataHash, at: fixture.attestedAt)
    }

    @Test func wrongTeam() async throws {
        let verifier = try fixture.verifier(apps: [.init(teamID: "ABCDE12345", bundleID: fixture.app.bundleID)])
        await expectRejection(.wrongApp) { try await verifyAttestation(verifier: verifier) }
    }

    @Test func wrongBundle() async throws {
        let verifier = try fixture.verifier(apps: [.init(teamID: fixture.app.teamID, bundleID: "com.example.other")])
        await expectRejection(.wrongApp) { try await verifyAttestation(verifier: verifier) }
    }

    @Test func wrongEnvironment() async throws {
        let verifier = try fixture.verifier(environment: .production)
        await expectRejection(.wrongEnvironment) { try await verifyAttestation(verifier: verifier) }
    }

    @Test func selfMadeIntermediate() async throws {
        let tampered = try AttestationEditing.editingCertificate(
            1, of: fixture.attestation, AttestationEditing.selfMade)
        await expectRejection(.chainInvalid) { try await verifyAttestation(tampered) }
    }

    @Test func flippedCertificateByte() async throws {
        let tampered = try AttestationEditing.editingCertificate(0, of: fixture.attestation) {
            AttestationEditing.flippingBit($0, at: -1)
        }
        await expectRejection(.chainInvalid) { try await verifyAttestation(tampered) }
    }

    @Test func untrustedRoot() async throws {
        let verifier = try AppAttestVerifier(
            apps: [fixture.app], environment: fixture.environment, rootCertificatePEMs: [try TestAppAttest().rootPEM])
        await expectRejection(.chainInvalid) { try await verifyAttestation(verifier: verifier) }
    }

    @Test func nonceMismatch() async throws {
        await expectRejection(.nonceMismatch) {
            try await verifyAttestation(clientDataHash: AttestationEditing.flippingBit(fixture.clientDataHash, at: 0))
        }
    }

    @Test func keyIDMismatch() async throws {
        await expectRejection(.keyIDMismatch) {
            try await verifyAttestation(keyID: AttestationEditing.flippingBit(fixture.keyID, at: 0))
        }
    }

    @Test func wrongFormat() async throws {
        let tampered = try AttestationEditing.setting("fmt", to: .textString("apple"), in: fixture.attestation)
        await expectRejection(.wrongFormat) { try await verifyAttestation(tampered) }
    }

    @Test func malformedCBOR() async throws {
        await expectRejection(.malformed) { try await verifyAttestation([0xA1, 0x63, 0x66]) }
        await expectRejection(.malformed) { try await verifyAttestation([0x81, 0x63, 0x66, 0x6D, 0x74]) }  // ["fmt"]
        await expectRejection(.malformed) { try await verifyAttestation(Array(fixture.attestation.dropLast())) }
    }

    @Test func missingReceipt() async throws {
        let tampered = try AttestationEditing.setting("attStmt", to: .map([]), in: fixture.attestation)
        await expectRejection(.malformed) { try await verifyAttestation(tampered) }
    }
}
