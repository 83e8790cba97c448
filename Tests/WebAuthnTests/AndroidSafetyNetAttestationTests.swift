import ByteEncoding
import CBOR
import Crypto
import Foundation
import Testing
import X509

@testable import WebAuthn

/// `android-safetynet` (§8.5): one test per reason a statement is refused, each a change to the real 2019 vector.
/// Changes to the JWS payload are re-signed (ES256) by a re-issued leaf that keeps the real leaf's names.
@Suite("WebAuthn android-safetynet: one test per rejection")
struct AndroidSafetyNetAttestationTests {
    static let fixture = "registration-android-safetynet-simplewebauthn"

    func registration() throws -> MutableRegistration { try MutableRegistration(Self.fixture) }

    /// The three segments of the vector's JWS.
    func segments(_ registration: MutableRegistration) throws -> [String] {
        let response = try #require(registration["response"]?.bytes)
        return String(decoding: response, as: UTF8.self).split(separator: ".").map(String.init)
    }

    /// The vector with its JWS replaced by one re-signed with a fresh key for `payload` changed by `edit`, by a leaf
    /// re-issued for that key (and with `subjectAlternativeName` instead of its own, if given).
    func resigned(
        alg: String = "ES256", subjectAlternativeName: Certificate.Extension? = nil,
        _ edit: (inout [String: Any]) throws -> Void = { _ in }
    ) throws -> MutableRegistration {
        var registration = try registration()
        let parts = try segments(registration)
        let header = try Self.json(parts[0])
        var payload = try Self.json(parts[1])
        try edit(&payload)
        let encodedChain = try #require(header["x5c"] as? [String])
        var chain = encodedChain.compactMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }
        let key = P256.Signing.PrivateKey()
        chain[0] = try TestCertificates.reissue(chain[0], publicKey: Certificate.PublicKey(key.publicKey)) {
            extensions in
            guard let subjectAlternativeName else { return }
            extensions.removeAll { $0.oid == .X509ExtensionID.subjectAlternativeName }
            extensions.append(subjectAlternativeName)
        }
        let newHeader: [String: Any] = ["alg": alg, "x5c": chain.map { Data($0).base64EncodedString() }]
        let signingInput =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: newHeader)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: payload))
        let signature = try key.signature(for: Array(signingInput.utf8)).rawRepresentation
        registration["response"] = .byteString(Array((signingInput + "." + Base64URL.encode(signature)).utf8))
        return registration
    }

    /// The JSON object in a base64url JWS segment.
    static func json(_ segment: String) throws -> [String: Any] {
        let data = try #require(Base64URL.decode(segment))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func chainLongerThanFiveCertificates() async throws {
        var registration = try registration()
        let parts = try segments(registration)
        // Six DER SEQUENCEs that are not certificates: the count is refused before any of them is parsed.
        let header: [String: Any] = ["alg": "ES256", "x5c": Array(repeating: "MAA=", count: 6)]
        let jws = Base64URL.encode(try JSONSerialization.data(withJSONObject: header)) + ".\(parts[1]).\(parts[2])"
        registration["response"] = .byteString(Array(jws.utf8))
        await registration.expectInvalid("x5c holds at most 5 certificates")
    }

    @Test func theUnchangedVectorVerifiesAndIsTrusted() async throws {
        let verified = try await registration().verify()
        #expect(verified.attestationType == .basic)
        #expect(verified.attestationTrusted)
    }

    @Test func aResignedResponseVerifies() async throws {
        let verified = try await resigned().verify()
        #expect(verified.attestationType == .basic)
        #expect(!verified.attestationTrusted)
    }

    @Test func missingVersion() async throws {
        var registration = try registration()
        registration["ver"] = nil
        await registration.expectInvalid("ver")
    }

    @Test func missingResponse() async throws {
        var registration = try registration()
        registration["response"] = nil
        await registration.expectInvalid("response")
    }

    @Test func responseThatIsNotAJWS() async throws {
        var registration = try registration()
        registration["response"] = .byteString(Array("not.a jws".utf8))
        await registration.expectInvalid("compact JWS")
    }

    @Test func tamperedAuthenticatorData() async throws {
        var registration = try registration()
        registration.tamperAuthData()
        await registration.expectInvalid("nonce")
    }

    @Test func nonceOfAnotherRegistration() async throws {
        let registration = try resigned { $0["nonce"] = Data(SHA256.hash(data: [0x00])).base64EncodedString() }
        await registration.expectInvalid("nonce")
    }

    @Test func headerCertificatesThatAreNotCertificates() async throws {
        var registration = try registration()
        var parts = try segments(registration)
        parts[0] = Base64URL.encode(Array(#"{"alg":"RS256","x5c":["MAA="]}"#.utf8))
        registration["response"] = .byteString(Array(parts.joined(separator: ".").utf8))
        await registration.expectInvalid("x5c")
    }

    @Test func tamperedSignature() async throws {
        var registration = try registration()
        var parts = try segments(registration)
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[10] ^= 0x01
        parts[2] = Base64URL.encode(signature)
        registration["response"] = .byteString(Array(parts.joined(separator: ".").utf8))
        await registration.expectInvalid("signature does not verify")
    }

    @Test func unsupportedSignatureAlgorithm() async throws {
        try await resigned(alg: "none").expectInvalid("signature does not verify")
    }

    @Test func leafForAnotherHost() async throws {
        let otherHost = try Certificate.Extension(
            SubjectAlternativeNames([.dnsName("attest.example.com")]), critical: false)
        try await resigned(subjectAlternativeName: otherHost).expectInvalid("attest.android.com")
    }

    @Test func leafWithAnUnreadableSubjectAlternativeNameAndTheRightCommonName() async throws {
        // A NULL where the GeneralNames SEQUENCE belongs; the leaf's CN is still attest.android.com.
        let unreadable = Certificate.Extension(
            oid: .X509ExtensionID.subjectAlternativeName, critical: false, value: [0x05, 0x00])
        try await resigned(subjectAlternativeName: unreadable).expectInvalid("attest.android.com")
    }

    @Test func headerWithoutCertificates() async throws {
        var registration = try registration()
        var parts = try segments(registration)
        parts[0] = Base64URL.encode(Array(#"{"alg":"RS256","x5c":[]}"#.utf8))
        registration["response"] = .byteString(Array(parts.joined(separator: ".").utf8))
        await registration.expectInvalid("no x5c certificate chain")
    }

    @Test func deviceFailedTheCompatibilityCheck() async throws {
        try await resigned { $0["ctsProfileMatch"] = false }.expectInvalid("ctsProfileMatch")
    }

    @Test func staleTimestampUnderTheDefaultWindow() async throws {
        // The vector's timestampMs is seven weeks before its verification time.
        var registration = try registration()
        registration.policy.safetyNetTimestampWindow = AttestationPolicy().safetyNetTimestampWindow
        #expect(registration.policy.safetyNetTimestampWindow == 60)
        await registration.expectInvalid("timestampMs")
    }

    @Test func freshTimestampUnderTheDefaultWindow() async throws {
        var registration = try resigned { payload in
            let milliseconds = (try Fixture.named(Self.fixture).verifyAt.timeIntervalSince1970 - 30) * 1000
            payload["timestampMs"] = Int64(milliseconds)
        }
        registration.policy.safetyNetTimestampWindow = 60
        let verified = try await registration.verify()
        #expect(verified.attestationType == .basic)
    }

    @Test func timestampFromTheFutureUnderTheDefaultWindow() async throws {
        var registration = try resigned { payload in
            let milliseconds = (try Fixture.named(Self.fixture).verifyAt.timeIntervalSince1970 + 90) * 1000
            payload["timestampMs"] = Int64(milliseconds)
        }
        registration.policy.safetyNetTimestampWindow = 60
        await registration.expectInvalid("timestampMs")
    }

    @Test func missingTimestampUnderAWindow() async throws {
        var registration = try resigned { $0["timestampMs"] = nil }
        registration.policy.safetyNetTimestampWindow = 60
        await registration.expectInvalid("timestampMs")
    }

    @Test func emptyVersion() async throws {
        var registration = try registration()
        registration["ver"] = .textString("")
        await registration.expectInvalid("attStmt needs a ver and a response")
    }

    @Test func aJWSOfFourParts() async throws {
        var registration = try registration()
        let parts = try segments(registration)
        registration["response"] = .byteString(Array((parts + [parts[2]]).joined(separator: ".").utf8))
        await registration.expectInvalid("response is not a compact JWS with a JSON header and payload")
    }

    @Test func timestampExactlyTheWindowAgo() async throws {
        var registration = try resigned { payload in
            let milliseconds = (try Fixture.named(Self.fixture).verifyAt.timeIntervalSince1970 - 60) * 1000
            payload["timestampMs"] = Int64(milliseconds)
        }
        registration.policy.safetyNetTimestampWindow = 60
        #expect(try await registration.verify().attestationType == .basic)
    }
}
