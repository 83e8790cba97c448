import ByteEncoding
import CBOR
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// A real fixture's registration with its attestation object decoded, so that a test can change one member of the
/// attestation statement or a byte of the authenticator data, re-encode it, and verify it as the fixture says.
struct MutableRegistration {
    struct Missing: Error {}

    let fixture: Fixture
    var object: CBORValue
    var policy: AttestationPolicy

    init(_ name: String) throws {
        fixture = try Fixture.named(name)
        guard let bytes = Base64URL.decode(try fixture.registration().response.attestationObject) else {
            throw Missing()
        }
        object = try CBORDecoder().decode(Array(bytes))
        policy = try fixture.policy
    }

    /// A member of `attStmt`; setting `nil` removes it.
    subscript(member: String) -> CBORValue? {
        get { object["attStmt"]?[member] }
        set { object = object.setting("attStmt", (object["attStmt"] ?? [:]).setting(member, newValue)) }
    }

    /// `authData`.
    var authData: [UInt8] {
        get { object["authData"]?.bytes ?? [] }
        set { object = object.setting("authData", .byteString(newValue)) }
    }

    /// The DER certificates of `attStmt.x5c`.
    var certificates: [[UInt8]] {
        get { self["x5c"]?.array?.compactMap(\.bytes) ?? [] }
        set { self["x5c"] = .array(newValue.map { .byteString($0) }) }
    }

    /// SHA-256 of the fixture's clientDataJSON.
    var clientDataHash: [UInt8] {
        get throws {
            guard let clientData = Base64URL.decode(try fixture.registration().response.clientDataJSON) else {
                throw Missing()
            }
            return Array(SHA256.hash(data: clientData))
        }
    }

    /// Flips the bits of the byte at `index` of `authData`; the signature counter (33–36) changes nothing else.
    mutating func tamperAuthData(at index: Int = 36) {
        authData[index] ^= 0xFF
    }

    /// Verifies the re-encoded registration at the fixture's time.
    func verify() async throws -> VerifiedRegistration {
        var response = try fixture.registration()
        response.response.attestationObject = Base64URL.encode(CBOREncoder().encode(object))
        return try await RegistrationVerifier(relyingParty: try fixture.relyingParty, policy: policy).verify(
            response, expectedChallenge: fixture.challenge, requireUserVerification: fixture.requireUserVerification,
            at: fixture.verifyAt)
    }

    /// Expects verification to fail with INVALID_ATTESTATION, for the reason whose message contains `reason`.
    func expectInvalid(_ reason: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let error = await #expect(
            throws: WebAuthnError(.invalidAttestation, ""), sourceLocation: sourceLocation
        ) {
            try await verify()
        }
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
    }
}

extension CBORValue {
    /// This map with `key` set to `value`, or removed when `value` is `nil`; other entries keep their order.
    func setting(_ key: String, _ value: CBORValue?) -> CBORValue {
        var entries = mapEntries ?? []
        let index = entries.firstIndex { $0.key == .textString(key) }
        switch (index, value) {
        case (let index?, let value?): entries[index] = CBORMapEntry(key: .textString(key), value: value)
        case (let index?, nil): entries.remove(at: index)
        case (nil, let value?): entries.append(CBORMapEntry(key: .textString(key), value: value))
        case (nil, nil): break
        }
        return .map(entries)
    }
}

/// Certificates for rejection tests. Formats never check an attestation certificate's own signature (chain
/// validation does, later), so a certificate can be edited or re-issued under a throwaway key.
enum TestCertificates {
    struct NotFoundOnce: Error {}

    /// `bytes` with the one occurrence of `old` replaced by `new`.
    static func patch(_ bytes: [UInt8], _ old: [UInt8], _ new: [UInt8]) throws -> [UInt8] {
        let starts = (0...(bytes.count - old.count)).filter { bytes[$0..<$0 + old.count].elementsEqual(old) }
        guard starts.count == 1, let start = starts.first else { throw NotFoundOnce() }
        return Array(bytes[..<start]) + new + Array(bytes[(start + old.count)...])
    }

    /// `der` re-issued with another version, key, subject or issuer, or edited extensions, signed by `issuerKey` (by
    /// default a throwaway key).
    static func reissue(
        _ der: [UInt8], version: Certificate.Version? = nil, publicKey: Certificate.PublicKey? = nil,
        subject: DistinguishedName? = nil,
        issuer: DistinguishedName? = nil, issuerKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey(),
        editing edit: (inout [Certificate.Extension]) throws -> Void = { _ in }
    ) throws -> [UInt8] {
        let original = try Certificate(derEncoded: der)
        var extensions = Array(original.extensions)
        try edit(&extensions)
        let certificate = try Certificate(
            version: version ?? original.version, serialNumber: original.serialNumber,
            publicKey: publicKey ?? original.publicKey, notValidBefore: original.notValidBefore,
            notValidAfter: original.notValidAfter, issuer: issuer ?? original.issuer,
            subject: subject ?? original.subject,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: try Certificate.Extensions(extensions),
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
        return try Self.der(certificate)
    }

    /// The DER encoding of `element`.
    static func der(_ element: some DERSerializable) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(element)
        return serializer.serializedBytes
    }

    /// The `extensions` without the one whose OID is `oid`.
    static func removing(_ oid: ASN1ObjectIdentifier) -> (inout [Certificate.Extension]) throws -> Void {
        { extensions in extensions.removeAll { $0.oid == oid } }
    }

    /// The COSE_Key of a P-256 public key, as authenticator data carries it.
    static func coseKey(_ key: P256.Signing.PublicKey) -> [UInt8] {
        let point = Array(key.x963Representation)
        let map: CBORValue = [
            1: 2, 3: -7, -1: 1, -2: .byteString(Array(point[1...32])), -3: .byteString(Array(point[33...64])),
        ]
        return CBOREncoder().encode(map)
    }
}
