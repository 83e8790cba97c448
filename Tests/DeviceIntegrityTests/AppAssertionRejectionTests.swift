import CBOR
import Crypto
import DeviceIntegrity
import Foundation
import Testing

/// One test per reason a real assertion is refused, each a change to the iOS 14.4 sample's first assertion.
@Suite("App Attest assertions: one test per rejection")
struct AppAssertionRejectionTests {
    let fixture: AppAttestFixture
    let publicKey: P256.Signing.PublicKey

    init() async throws {
        fixture = try AppAttestFixture.load("ios-14.4.yaml")
        publicKey = try await fixture.verifier().verifyAttestation(
            fixture.attestation, keyID: fixture.keyID, clientDataHash: fixture.clientDataHash, at: fixture.attestedAt
        ).publicKey
    }

    func verify(
        _ assertion: [UInt8]? = nil, clientDataHash: [UInt8]? = nil, previousCounter: UInt32 = 0,
        app: AppAttestApp? = nil, verifier: AppAttestVerifier? = nil
    ) throws {
        _ = try (verifier ?? fixture.verifier()).verifyAssertion(
            assertion ?? fixture.assertion, publicKey: publicKey,
            clientDataHash: clientDataHash ?? fixture.clientDataHash, previousCounter: previousCounter,
            app: app ?? fixture.app)
    }

    /// The sample's assertion with member `key` replaced by `transform` of it.
    func editing(_ key: String, _ transform: ([UInt8]) -> [UInt8]) throws -> [UInt8] {
        guard case .map(var entries) = try CBORDecoder().decode(fixture.assertion),
            let index = entries.firstIndex(where: { $0.key == .textString(key) }),
            let bytes = entries[index].value.bytes
        else {
            throw AttestationEditing.NotAnAttestation()
        }
        entries[index] = CBORMapEntry(key: .textString(key), value: .byteString(transform(bytes)))
        return CBOREncoder().encode(.map(entries))
    }

    @Test func counterReplayOfTheSameCounter() async {
        await expectRejection(.counterReplay) { try verify(previousCounter: fixture.assertionCounter) }
    }

    @Test func counterReplayBehindTheStoredCounter() async {
        await expectRejection(.counterReplay) { try verify(previousCounter: 42) }
    }

    @Test func signatureBitFlip() async throws {
        let tampered = try editing("signature") { AttestationEditing.flippingBit($0, at: -1) }
        await expectRejection(.badSignature) { try verify(tampered) }
    }

    @Test func tamperedAuthenticatorData() async throws {
        let tampered = try editing("authenticatorData") { AttestationEditing.flippingBit($0, at: -1) }
        await expectRejection(.badSignature) { try verify(tampered) }
    }

    @Test func otherClientData() async {
        await expectRejection(.badSignature) {
            try verify(clientDataHash: AttestationEditing.flippingBit(fixture.clientDataHash, at: 0))
        }
    }

    @Test func anotherKey() async {
        await expectRejection(.badSignature) {
            _ = try fixture.verifier().verifyAssertion(
                fixture.assertion, publicKey: P256.Signing.PrivateKey().publicKey,
                clientDataHash: fixture.clientDataHash, previousCounter: 0, app: fixture.app)
        }
    }

    @Test func anotherConfiguredApp() async throws {
        let other = AppAttestApp(teamID: fixture.app.teamID, bundleID: "com.example.other")
        let verifier = try fixture.verifier(apps: [fixture.app, other])
        await expectRejection(.wrongApp) { try verify(app: other, verifier: verifier) }
    }

    @Test func anAppThatIsNotConfigured() async throws {
        let verifier = try fixture.verifier(apps: [AppAttestApp(teamID: "ABCDE12345", bundleID: "com.example")])
        await expectRejection(.wrongApp) { try verify(verifier: verifier) }
    }

    @Test func malformedAssertion() async throws {
        await expectRejection(.malformed) { try verify([0xA0]) }
        await expectRejection(.malformed) { try verify([0x80]) }  // an array, not a map
        let short = try editing("authenticatorData") { Array($0.prefix(36)) }
        await expectRejection(.malformed) { try verify(short) }
    }
}
