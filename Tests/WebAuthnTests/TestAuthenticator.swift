import CBOR
import Crypto
import Foundation

@testable import WebAuthn

/// A software authenticator that builds ceremonies piece by piece, so each test can break exactly one piece.
struct TestAuthenticator {
    static let rpID = "example.com"
    static let origin = "https://example.com"

    let key = P256.Signing.PrivateKey()
    let credentialID: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }
    var aaguid: [UInt8] = Array(repeating: 0, count: 16)

    /// The credential's COSE_Key.
    var coseKey: CBORValue {
        let point = Array(key.publicKey.x963Representation)
        return [1: 2, 3: -7, -1: 1, -2: .byteString(Array(point[1...32])), -3: .byteString(Array(point[33...64]))]
    }

    static var relyingParty: RelyingParty {
        get throws { try RelyingParty(id: rpID, name: "Example", origins: [origin]) }
    }

    /// Client data as a browser writes it.
    static func clientData(
        type: String, challenge: [UInt8], origin: String = origin, extra: [String: Any] = [:]
    ) -> [UInt8] {
        var object: [String: Any] = ["type": type, "challenge": Base64URL.encode(challenge), "origin": origin]
        object.merge(extra) { $1 }
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// Authenticator data with the given flags (UP and UV by default).
    func authenticatorData(
        flags: AuthenticatorFlags = [.userPresent, .userVerified], signCount: UInt32 = 0,
        rpID: String = rpID, attested: Bool = false, publicKey: CBORValue? = nil
    ) -> [UInt8] {
        var flags = flags
        if attested { flags.insert(.attestedCredentialData) }
        var bytes = Array(SHA256.hash(data: Array(rpID.utf8))) + [flags.rawValue]
        bytes += withUnsafeBytes(of: signCount.bigEndian, Array.init)
        if attested {
            bytes += aaguid + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID
            bytes += CBOREncoder().encode(publicKey ?? coseKey)
        }
        return bytes
    }

    func sign(_ data: [UInt8]) -> [UInt8] {
        Array((try? key.signature(for: data).derRepresentation) ?? Data())
    }

    /// A registration response with `fmt` none, or packed self attestation.
    func registration(
        challenge: [UInt8], format: String = "none", clientData: [UInt8]? = nil, authenticatorData: [UInt8]? = nil,
        statement: CBORValue? = nil
    ) -> RegistrationResponseJSON {
        let clientData = clientData ?? Self.clientData(type: "webauthn.create", challenge: challenge)
        let authData = authenticatorData ?? self.authenticatorData(attested: true)
        let defaultStatement: CBORValue =
            format == "packed"
            ? ["alg": -7, "sig": .byteString(sign(authData + Array(SHA256.hash(data: clientData))))] : [:]
        let object: CBORValue = [
            "fmt": .textString(format), "attStmt": statement ?? defaultStatement, "authData": .byteString(authData),
        ]
        let id = Base64URL.encode(credentialID)
        return RegistrationResponseJSON(
            id: id, rawId: id, type: "public-key",
            response: .init(
                clientDataJSON: Base64URL.encode(clientData),
                attestationObject: Base64URL.encode(CBOREncoder().encode(object)), transports: ["internal"]))
    }

    /// An assertion signed by this authenticator.
    func assertion(
        challenge: [UInt8], signCount: UInt32 = 1, flags: AuthenticatorFlags = [.userPresent, .userVerified],
        clientData: [UInt8]? = nil, userHandle: [UInt8]? = nil
    ) -> AuthenticationResponseJSON {
        let clientData = clientData ?? Self.clientData(type: "webauthn.get", challenge: challenge)
        let authData = authenticatorData(flags: flags, signCount: signCount)
        let signature = sign(authData + Array(SHA256.hash(data: clientData)))
        let id = Base64URL.encode(credentialID)
        return AuthenticationResponseJSON(
            id: id, rawId: id, type: "public-key",
            response: .init(
                clientDataJSON: Base64URL.encode(clientData), authenticatorData: Base64URL.encode(authData),
                signature: Base64URL.encode(signature), userHandle: userHandle.map { Base64URL.encode($0) }))
    }

    /// What a relying party stored for this authenticator's credential.
    func stored(signCount: UInt32 = 0, backupEligible: Bool = false) -> StoredCredential {
        StoredCredential(
            id: credentialID, publicKey: CBOREncoder().encode(coseKey), signCount: signCount,
            backupEligible: backupEligible)
    }
}
