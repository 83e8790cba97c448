import ByteEncoding
import CBOR
import Crypto
import Foundation
import HaleClient
import Testing

@testable import WebAuthn

/// ML-DSA credentials (COSE AKP keys): a software authenticator's registration and sign-in, and one test per reason
/// one is refused, each asserting the code and the message.
@Suite("WebAuthn: ML-DSA, one test per rejection", .mlDSAAvailable)
struct MLDSARejectionTests {
    let challenge: [UInt8] = Array("ml-dsa-challenge-0123456789".utf8)
    let mlDSA65: SoftwarePasskey
    let mlDSA87: SoftwarePasskey

    init() throws {
        mlDSA65 = try SoftwarePasskey(algorithm: .mlDSA65)
        mlDSA87 = try SoftwarePasskey(algorithm: .mlDSA87)
    }

    private func register(
        _ response: RegistrationResponseJSON, relyingParty: RelyingParty? = nil
    ) async throws -> VerifiedRegistration {
        try await RegistrationVerifier(relyingParty: try relyingParty ?? mlDSA65.relyingParty).verify(
            response, expectedChallenge: challenge, requireUserVerification: false, at: Date())
    }

    /// Expects `response` to be refused with `code` and exactly `message`.
    private func expectRefused(
        _ response: RegistrationResponseJSON, _ code: WebAuthnError.Code, _ message: String,
        relyingParty: RelyingParty? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let error = await #expect(throws: WebAuthnError(code, ""), sourceLocation: sourceLocation) {
            try await register(response, relyingParty: relyingParty)
        }
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }

    /// A registration whose credential public key is `key`.
    private func registration(publicKey key: CBORValue) -> RegistrationResponseJSON {
        mlDSA65.registration(
            challenge: challenge, authenticatorData: mlDSA65.authenticatorData(attested: true, publicKey: key))
    }

    private func pub(_ passkey: SoftwarePasskey) -> [UInt8] {
        passkey.coseKey[-1]?.bytes ?? []
    }

    @Test(arguments: ["none", "packed"])
    func aSoftwareAuthenticatorRegistersAndSignsIn(format: String) async throws {
        for passkey in [mlDSA65, mlDSA87] {
            let verified = try await register(passkey.registration(challenge: challenge, format: format))
            #expect(verified.algorithm == passkey.algorithm)
            #expect(verified.attestationType == (format == "none" ? .none : .self))
            let stored = StoredCredential(
                id: verified.credentialID, publicKey: verified.publicKey, signCount: 0, backupEligible: false)
            let signedIn = try AuthenticationVerifier(relyingParty: try passkey.relyingParty).verify(
                passkey.assertion(challenge: challenge), expectedChallenge: challenge, credential: stored,
                requireUserVerification: true)
            #expect(signedIn.signCount == 1)
        }
    }

    @Test func theKeysAreTheFIPS204Lengths() {
        #expect(pub(mlDSA65).count == 1952)
        #expect(pub(mlDSA87).count == 2592)
        #expect(MLDSAPublicKey.ParameterSet.mlDSA65.publicKeyLength == 1952)
        #expect(MLDSAPublicKey.ParameterSet.mlDSA87.publicKeyLength == 2592)
    }

    @Test func anMLDSA65KeyOneByteShort() async {
        let key: CBORValue = [1: 7, 3: -49, -1: .byteString(Array(pub(mlDSA65).dropLast()))]
        await expectRefused(
            registration(publicKey: key), .invalidPublicKey, "an ML-DSA-65 public key is 1952 bytes, not 1951")
    }

    @Test func anMLDSA65KeyOneByteLong() async {
        let key: CBORValue = [1: 7, 3: -49, -1: .byteString(pub(mlDSA65) + [0])]
        await expectRefused(
            registration(publicKey: key), .invalidPublicKey, "an ML-DSA-65 public key is 1952 bytes, not 1953")
    }

    @Test func anMLDSA65KeyLabelledMLDSA87() async {
        let key: CBORValue = [1: 7, 3: -50, -1: .byteString(pub(mlDSA65))]
        await expectRefused(
            registration(publicKey: key), .invalidPublicKey, "an ML-DSA-87 public key is 2592 bytes, not 1952")
    }

    @Test func anMLDSA87KeyLabelledMLDSA65() async {
        let key: CBORValue = [1: 7, 3: -49, -1: .byteString(pub(mlDSA87))]
        await expectRefused(
            registration(publicKey: key), .invalidPublicKey, "an ML-DSA-65 public key is 1952 bytes, not 2592")
    }

    @Test func aKeyLongerThanAnyMLDSAKeyIsRefusedBeforeItIsDecoded() async {
        let key: CBORValue = [1: 7, 3: -50, -1: .byteString(pub(mlDSA87) + [0])]
        await expectRefused(
            registration(publicKey: key), .invalidPublicKey, "the credential public key is not valid CBOR")
        #expect(throws: WebAuthnError(.invalidPublicKey, "")) { try COSEKey(bytes: CBOREncoder().encode(key)) }
    }

    @Test func anAKPKeyWithoutPub() async {
        let key: CBORValue = [1: 7, 3: -49]
        await expectRefused(
            registration(publicKey: key), .invalidPublicKey,
            "an ML-DSA-65 key needs its public key, pub (-1), as a byte string")
    }

    @Test func anAKPKeyWhosePubIsNotAByteString() async {
        let key: CBORValue = [1: 7, 3: -50, -1: .textString("pub")]
        await expectRefused(
            registration(publicKey: key), .invalidPublicKey,
            "an ML-DSA-87 key needs its public key, pub (-1), as a byte string")
    }

    @Test func anAKPKeyOfMLDSA44() async {
        let key: CBORValue = [1: 7, 3: -48, -1: .byteString([UInt8](repeating: 1, count: 1312))]
        await expectRefused(
            registration(publicKey: key), .unsupportedAlgorithm,
            "ML-DSA-44 (-48) is not supported: swift-crypto does not implement it")
    }

    @Test func anAKPKeyOfAClassicalAlgorithm() async {
        let key: CBORValue = [1: 7, 3: -7, -1: .byteString(pub(mlDSA65))]
        await expectRefused(
            registration(publicKey: key), .unsupportedAlgorithm, "key type 7 with algorithm -7 is not supported")
    }

    @Test func anMLDSAAlgorithmOnAnotherKeyType() async {
        let key: CBORValue = [1: 2, 3: -49, -1: .byteString(pub(mlDSA65))]
        await expectRefused(
            registration(publicKey: key), .unsupportedAlgorithm, "key type 2 with algorithm -49 is not supported")
    }

    @Test func mlDSAWhenTheRelyingPartyDidNotOfferIt() async throws {
        let classical = try RelyingParty(
            id: mlDSA65.rpID, name: "Example", origins: [mlDSA65.origin], algorithms: [.es256, .edDSA, .rs256])
        await expectRefused(
            mlDSA65.registration(challenge: challenge), .unsupportedAlgorithm,
            "the credential's algorithm was not offered", relyingParty: classical)
    }

    @Test func packedSelfAttestationByAnotherMLDSAParameterSet() async {
        let data = mlDSA65.authenticatorData(attested: true)
        let statement: CBORValue = ["alg": -50, "sig": .byteString(mlDSA65.sign(data))]
        await expectRefused(
            mlDSA65.registration(challenge: challenge, format: "packed", statement: statement), .invalidAttestation,
            "packed: alg differs from the credential's algorithm")
    }

    @Test func packedSelfAttestationThatDoesNotVerify() async {
        let statement: CBORValue = ["alg": -49, "sig": .byteString(mlDSA65.sign([0x00]))]
        await expectRefused(
            mlDSA65.registration(challenge: challenge, format: "packed", statement: statement), .invalidAttestation,
            "packed: the self-attestation signature does not verify")
    }

    @Test func packedAttestationByAnMLDSACertificate() async {
        let statement: CBORValue = ["alg": -49, "sig": .byteString([1]), "x5c": [.byteString([0x30, 0x00])]]
        await expectRefused(
            mlDSA65.registration(challenge: challenge, format: "packed", statement: statement),
            .unsupportedAttestationFormat, "packed: attestation certificates with ML-DSA keys are not supported")
    }

    @Test func androidKeyAttestationByAnMLDSACertificate() async {
        let statement: CBORValue = ["alg": -50, "sig": .byteString([1]), "x5c": [.byteString([0x30, 0x00])]]
        await expectRefused(
            mlDSA87.registration(challenge: challenge, format: "android-key", statement: statement),
            .unsupportedAttestationFormat, "android-key: attestation certificates with ML-DSA keys are not supported")
    }

    @available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *)
    @Test func anAssertionSignedWithAContextIsRefused() throws {
        // WebAuthn signs pure ML-DSA with the empty context; a signature in any other context must not verify.
        let key = try MLDSA65.PrivateKey()
        let cose: CBORValue = [1: 7, 3: -49, -1: .byteString(Array(key.publicKey.rawRepresentation))]
        let message = Array("authenticator data and client data hash".utf8)
        let verifier = try COSEKey(bytes: CBOREncoder().encode(cose))
        #expect(verifier.isValidSignature(Array(try key.signature(for: message)), for: message))
        let withContext = try key.signature(for: message, context: Array("webauthn".utf8))
        #expect(!verifier.isValidSignature(Array(withContext), for: message))
    }

    @Test func anAssertionWhoseSignatureIsCutShort() throws {
        var assertion = mlDSA65.assertion(challenge: challenge)
        let signature = Array(try #require(Base64URL.decode(assertion.response.signature)))
        #expect(signature.count == 3309)
        assertion.response.signature = Base64URL.encode(signature.dropLast())
        let error = #expect(throws: WebAuthnError(.invalidSignature, "")) {
            try AuthenticationVerifier(relyingParty: try mlDSA65.relyingParty).verify(
                assertion, expectedChallenge: challenge, credential: mlDSA65.stored(), requireUserVerification: false)
        }
        #expect(error?.message == "the signature does not verify")
    }

    @Test func aSoftwarePasskeyOfAnotherAlgorithmCannotBeMade() {
        let error = #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) {
            try SoftwarePasskey(algorithm: .edDSA)
        }
        #expect(error?.message == "a software passkey signs with ES256 or ML-DSA")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs only where ML-DSA can be verified: on Apple platforms swift-crypto is CryptoKit, which has it from iOS 26
    /// and macOS 26 on; everywhere else it is always there.
    static var mlDSAAvailable: Self {
        .enabled(if: COSEAlgorithm.mlDSA65.isAvailable, "ML-DSA needs iOS 26 or macOS 26 on Apple platforms")
    }
}
