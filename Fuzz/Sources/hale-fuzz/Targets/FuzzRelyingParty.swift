import ByteEncoding
import CBOR
import Foundation
import WebAuthn

/// The relying party the WebAuthn targets play. Its IDs and origins are those of the test fixtures the seeds come
/// from, so a seed's authenticator data names a known RP, and the challenge it expects is the one the client data
/// carries: mutations then spend their time on what follows those checks, not on failing them.
enum FuzzRelyingParty {
    static let ids = [
        "localhost", "dev.dontneeda.pw", "dev2.dontneeda.pw", "example.org", "webauthntest.azurewebsites.net",
    ]
    static let origins = [
        "http://localhost:5000", "http://localhost:8000", "https://dev.dontneeda.pw", "https://dev2.dontneeda.pw:5000",
        "https://example.org", "https://webauthntest.azurewebsites.net",
    ]
    /// A time inside the validity of every fixture's attestation certificates that has one.
    static let verificationTime = Date(timeIntervalSince1970: 1_654_041_600)

    // The initialiser throws only for a malformed Android certificate digest, and none is passed.
    static let all: [RelyingParty] = ids.map { try! RelyingParty(id: $0, name: "Hale fuzz", origins: origins) }

    /// The relying party whose RP ID hash starts `authenticatorData`, else the first.
    static func matching(_ authenticatorData: [UInt8]) -> RelyingParty {
        all.first { authenticatorData.starts(with: $0.idHash) } ?? all[0]
    }

    /// The relying party for an attestation object's authenticator data.
    static func matching(attestationObject: [UInt8]) -> RelyingParty {
        matching(authenticatorData(inAttestationObject: attestationObject) ?? [])
    }

    /// The `authData` of an attestation object, if it decodes.
    static func authenticatorData(inAttestationObject bytes: [UInt8]) -> [UInt8]? {
        (try? CBORDecoder(maximumDepth: 8, maximumLength: 65_536).decode(bytes))?["authData"]?.bytes
    }

    /// The challenge `clientDataJSON` carries, as the server would have issued it; an arbitrary one when there is none.
    static func challenge(in clientDataJSON: [UInt8]) -> [UInt8] {
        (try? CollectedClientData(bytes: clientDataJSON)).flatMap { Base64URL.bytes($0.challenge) } ?? [0]
    }
}
