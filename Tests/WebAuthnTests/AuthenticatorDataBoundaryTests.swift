import CBOR
import Crypto
import Testing

@testable import WebAuthn

/// Authenticator data and attested credential data at exactly their lengths and limits, each refusal with its code
/// and reason: what mutation testing (`scripts/mutate WebAuthn`) found that no other test reached.
@Suite("WebAuthn authenticator data: lengths at their limits")
struct AuthenticatorDataBoundaryTests {
    /// A 37-byte header: an RP ID hash, user present with attested credential data, a zero counter.
    static let header = [UInt8](repeating: 0xAB, count: 32) + [0x41, 0, 0, 0, 0]
    static let aaguid = [UInt8](repeating: 0, count: 16)
    static let key = TestCertificates.coseKey(P256.Signing.PrivateKey().publicKey)

    /// Header, AAGUID, the ID's length and the first `idBytes` bytes of a credential ID of `idLength`, then `tail`.
    static func data(idLength: Int, idBytes: Int? = nil, tail: [UInt8] = key) -> [UInt8] {
        header + aaguid + [UInt8(idLength >> 8), UInt8(idLength & 0xFF)]
            + [UInt8](repeating: 0x5A, count: idBytes ?? idLength) + tail
    }

    static func refusal(_ bytes: [UInt8], accepting quirks: AuthenticatorDataQuirks = []) -> WebAuthnError? {
        do {
            _ = try AuthenticatorData(bytes: bytes, accepting: quirks)
            return nil
        } catch {
            return error
        }
    }

    @Test func shorterThan37Bytes() {
        let error = Self.refusal(Array(Self.header.dropLast()))
        #expect(error?.code == .malformedAuthenticatorData)
        #expect(error?.message == "authenticator data is shorter than 37 bytes")
    }

    @Test func aCredentialIDOfExactlyTheLongestLength() throws {
        let parsed = try AuthenticatorData(bytes: Self.data(idLength: 1023))
        #expect(parsed.attestedCredentialData?.credentialID.count == 1023)
        let error = Self.refusal(Self.data(idLength: 1024))
        #expect(error?.code == .invalidCredentialID)
        #expect(error?.message == "the credential ID is longer than 1023 bytes")
    }

    @Test func attestedCredentialDataCutShort() {
        let truncated = Self.refusal(Self.header + Self.aaguid + [0x00])
        #expect(truncated?.code == .malformedAuthenticatorData)
        #expect(truncated?.message == "attested credential data is truncated")
        // Exactly the 18 bytes before the ID, with an empty ID: what is missing is the key.
        let noKey = Self.refusal(Self.data(idLength: 0, tail: []))
        #expect(noKey?.code == .invalidPublicKey)
    }

    @Test func aCredentialIDCutShort() {
        let cut = Self.refusal(Self.data(idLength: 16, idBytes: 15, tail: []))
        #expect(cut?.code == .malformedAuthenticatorData)
        #expect(cut?.message == "the credential ID is truncated")
        // The whole ID and nothing after it: what is missing is the key.
        let noKey = Self.refusal(Self.data(idLength: 16, tail: []))
        #expect(noKey?.code == .invalidPublicKey)
    }

    @Test func theAttestedFlagWithoutDataOnlyWhereTheQuirkIsAccepted() throws {
        let parsed = try AuthenticatorData(bytes: Self.header, accepting: .attestedFlagWithoutData)
        #expect(parsed.attestedCredentialData == nil)
        #expect(Self.refusal(Self.header)?.message == "attested credential data is truncated")
        // With data present, the quirk changes nothing: the data is read.
        let withData = try AuthenticatorData(bytes: Self.data(idLength: 16), accepting: .attestedFlagWithoutData)
        #expect(withData.attestedCredentialData?.credentialID.count == 16)
    }
}
