import CBOR
import Crypto
import DeviceIntegrity
import Foundation
import Testing
import X509

@testable import HaleClient

@Suite("Software App Attest device")
struct SoftwareAppAttesterTests {
    static let clientDataHash = Data(SHA256.hash(data: Data("a-nonce".utf8)))

    static func verifier(for attester: SoftwareAppAttester, _ environment: AppAttestEnvironment) throws
        -> AppAttestVerifier
    {
        try AppAttestVerifier(
            apps: [AppAttestApp(teamID: attester.teamID, bundleID: attester.bundleID)], environment: environment,
            rootCertificatePEMs: [try attester.rootPEM])
    }

    @Test(
        "its attestation and counted assertions verify as Apple's do",
        arguments: SoftwareAppAttester.Environment.allCases)
    func attestsAndAsserts(environment: SoftwareAppAttester.Environment) async throws {
        let attester = try SoftwareAppAttester(environment: environment)
        let verifier = try Self.verifier(
            for: attester, try #require(AppAttestEnvironment(rawValue: environment.rawValue)))
        let keyID = try await attester.generateKey()
        let keyBytes = try #require(Data(base64Encoded: keyID))
        let attestation = try await attester.attestKey(keyID, clientDataHash: Self.clientDataHash)
        let attested = try await verifier.verifyAttestation(
            Array(attestation), keyID: Array(keyBytes), clientDataHash: Array(Self.clientDataHash), at: Date())
        #expect(attested.app.appID == attester.appID)
        #expect(attested.counter == 0)
        #expect(Data(SHA256.hash(data: attested.publicKey.x963Representation)) == keyBytes)

        var previous: UInt32 = 0
        for expected in UInt32(1)...3 {
            let assertion = try await attester.generateAssertion(keyID, clientDataHash: Self.clientDataHash)
            previous = try verifier.verifyAssertion(
                Array(assertion), publicKey: attested.publicKey, clientDataHash: Array(Self.clientDataHash),
                previousCounter: previous, app: attested.app)
            #expect(previous == expected)
        }
    }

    @Test("an attestation claims its own environment: a verifier of the other refuses it")
    func environmentIsClaimed() async throws {
        let attester = try SoftwareAppAttester(environment: .production)
        let keyID = try await attester.generateKey()
        let attestation = try await attester.attestKey(keyID, clientDataHash: Self.clientDataHash)
        await #expect(throws: AppAttestError.wrongEnvironment) {
            try await Self.verifier(for: attester, .development).verifyAttestation(
                Array(attestation), keyID: Array(try #require(Data(base64Encoded: keyID))),
                clientDataHash: Array(Self.clientDataHash), at: Date())
        }
    }

    @Test("each key counts its own assertions from 1")
    func countersArePerKey() async throws {
        let attester = try SoftwareAppAttester()
        let first = try await attester.generateKey()
        let second = try await attester.generateKey()
        #expect(first != second)
        for (key, expected) in [(first, UInt32(1)), (first, 2), (second, 1), (first, 3), (second, 2)] {
            let assertion = try await attester.generateAssertion(key, clientDataHash: Self.clientDataHash)
            #expect(Self.counter(of: Array(assertion)) == expected)
        }
    }

    @Test("a key it did not generate is an error, for attestation and assertion alike")
    func unknownKey() async throws {
        let attester = try SoftwareAppAttester()
        let stranger = Data(SHA256.hash(data: P256.Signing.PrivateKey().publicKey.x963Representation))
            .base64EncodedString()
        await #expect(throws: SoftwareAppAttesterError.unknownKey) {
            try await attester.generateAssertion(stranger, clientDataHash: Self.clientDataHash)
        }
        await #expect(throws: SoftwareAppAttesterError.unknownKey) {
            try await attester.attestKey(stranger, clientDataHash: Self.clientDataHash)
        }
    }

    @Test("built from an intermediate certificate another CA issued, its chains lead to that CA's root")
    func fromDevelopmentCredential() async throws {
        let ca = try TestAuthority()
        let key = P256.Signing.PrivateKey()
        let attester = try SoftwareAppAttester(
            intermediateKey: key, certificate: try ca.intermediate(for: key.publicKey), rootCertificate: try ca.rootDER,
            appID: "HALEDEVAPP.dev.hale.attestation", environment: .production)
        #expect(attester.teamID == "HALEDEVAPP" && attester.bundleID == "dev.hale.attestation")
        let keyID = try await attester.generateKey()
        let attestation = try await attester.attestKey(keyID, clientDataHash: Self.clientDataHash)
        let verifier = try AppAttestVerifier(
            apps: [AppAttestApp(teamID: "HALEDEVAPP", bundleID: "dev.hale.attestation")], environment: .production,
            rootCertificatePEMs: [try ca.root.serializeAsPEM().pemString])
        _ = try await verifier.verifyAttestation(
            Array(attestation), keyID: Array(try #require(Data(base64Encoded: keyID))),
            clientDataHash: Array(Self.clientDataHash), at: Date())
    }

    @Test("a certificate for another key, a certificate that is not DER, or a bad app id is refused")
    func badCredential() throws {
        let ca = try TestAuthority()
        let key = P256.Signing.PrivateKey()
        let other = try ca.intermediate(for: P256.Signing.PrivateKey().publicKey)
        #expect(throws: SoftwareAppAttesterError.invalidCredential) {
            try SoftwareAppAttester(
                intermediateKey: key, certificate: other, rootCertificate: try ca.rootDER, appID: "T.b",
                environment: .development)
        }
        #expect(throws: SoftwareAppAttesterError.invalidCredential) {
            try SoftwareAppAttester(
                intermediateKey: key, certificate: Data([1, 2, 3]), rootCertificate: try ca.rootDER, appID: "T.b",
                environment: .development)
        }
        #expect(throws: SoftwareAppAttesterError.invalidAppID) {
            try SoftwareAppAttester(
                intermediateKey: key, certificate: try ca.intermediate(for: key.publicKey),
                rootCertificate: try ca.rootDER, appID: "no-team", environment: .development)
        }
    }

    /// The counter of an assertion's authenticator data: the four bytes after the rpIdHash and flags.
    static func counter(of assertion: [UInt8]) -> UInt32? {
        guard let authData = (try? CBORDecoder().decode(assertion))?["authenticatorData"]?.bytes, authData.count == 37
        else {
            return nil
        }
        return authData[33...36].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// A root CA that issues intermediates as a server in development attestation mode does.
struct TestAuthority {
    let key = P256.Signing.PrivateKey()
    let root: Certificate

    init() throws {
        let name = try DistinguishedName { CommonName("Test Development Root") }
        root = try Self.certificate(subject: name, key: key.publicKey, issuer: name, issuerKey: key, pathLength: 1)
    }

    var rootDER: Data {
        get throws { Data(try SoftwareAppAttester.der(root)) }
    }

    func intermediate(for publicKey: P256.Signing.PublicKey) throws -> Data {
        let name = try DistinguishedName { CommonName("Test Development CA") }
        let certificate = try Self.certificate(
            subject: name, key: publicKey, issuer: root.subject, issuerKey: key, pathLength: 0)
        return Data(try SoftwareAppAttester.der(certificate))
    }

    private static func certificate(
        subject: DistinguishedName, key: P256.Signing.PublicKey, issuer: DistinguishedName,
        issuerKey: P256.Signing.PrivateKey, pathLength: Int
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key),
            notValidBefore: Date() - 300, notValidAfter: Date() + 86_400, issuer: issuer, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }
}
