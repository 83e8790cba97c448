import ByteEncoding
import CBOR
import Crypto
import Foundation
import WebAuthn

extension FuzzTarget {
    /// `Sources/WebAuthn/Authentication`: a sign-in (§7.2) verified in full against a stored credential.
    ///
    /// Inputs: `J`, the client's `AuthenticationResponseJSON`, then optionally the stored credential's COSE key; or
    /// `R`, then clientDataJSON, authenticator data, signature and optionally the stored COSE key as raw parts. Without
    /// a stored key the target's own key is stored, and an empty `R` signature is made with it, so mutated
    /// authenticator data and client data get past the signature to the counter checks.
    static let webAuthnAuthentication = FuzzTarget(name: "webauthn-authentication") { bytes in
        guard let (response, publicKey) = authenticationResponse(bytes),
            let credentialID = Base64URL.bytes(response.id),
            let clientData = Base64URL.bytes(response.response.clientDataJSON)
        else { return }
        let authenticatorData = Base64URL.bytes(response.response.authenticatorData) ?? []
        let verifier = AuthenticationVerifier(relyingParty: FuzzRelyingParty.matching(authenticatorData))
        let credential = StoredCredential(id: credentialID, publicKey: publicKey, signCount: 5, backupEligible: false)
        _ = try? verifier.verify(
            response, expectedChallenge: FuzzRelyingParty.challenge(in: clientData), credential: credential,
            requireUserVerification: false)
    }

    private static func authenticationResponse(_ bytes: [UInt8]) -> (AuthenticationResponseJSON, [UInt8])? {
        guard let (mode, parts) = FuzzInput.modeAndParts(bytes) else { return nil }
        switch mode {
        case UInt8(ascii: "J"):
            guard let response = try? JSONDecoder().decode(AuthenticationResponseJSON.self, from: Data(parts[0])) else {
                return nil
            }
            return (response, storedKey(parts[ifPresent: 1]))
        case UInt8(ascii: "R"):
            let clientData = Array(parts[0])
            let authenticatorData = Array(parts[ifPresent: 1] ?? [])
            var signature = Array(parts[ifPresent: 2] ?? [])
            if signature.isEmpty && parts.count < 4 {
                signature = FuzzCredential.signature(over: authenticatorData, clientData)
            }
            let id = Base64URL.encode(FuzzCredential.id)
            let response = AuthenticationResponseJSON(
                id: id, rawId: id, type: "public-key",
                response: .init(
                    clientDataJSON: Base64URL.encode(clientData),
                    authenticatorData: Base64URL.encode(authenticatorData),
                    signature: Base64URL.encode(signature)))
            return (response, storedKey(parts[ifPresent: 3]))
        default:
            return nil
        }
    }

    private static func storedKey(_ part: ArraySlice<UInt8>?) -> [UInt8] {
        part.map(Array.init) ?? FuzzCredential.publicKey
    }
}

/// The passkey the authentication target stores when the input names none, and signs with.
enum FuzzCredential {
    static let id: [UInt8] = Array("hale-fuzz-credential".utf8)
    // 32 bytes of 0x5A are a valid P-256 scalar: far below the group order.
    static let privateKey = try! P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0x5A, count: 32))

    /// The COSE_Key of the public key, in CTAP2 canonical form.
    static let publicKey: [UInt8] = {
        let point = Array(privateKey.publicKey.x963Representation)
        let key: CBORValue = [
            1: 2, 3: -7, -1: 1, -2: .byteString(Array(point[1...32])), -3: .byteString(Array(point[33...])),
        ]
        return CBOREncoder().encode(key)
    }()

    /// The DER ES256 signature over `authenticatorData ‖ SHA-256(clientDataJSON)`.
    static func signature(over authenticatorData: [UInt8], _ clientDataJSON: [UInt8]) -> [UInt8] {
        let signed = authenticatorData + SHA256.hash(data: clientDataJSON)
        // Signing with a valid key cannot fail.
        return Array(try! privateKey.signature(for: signed).derRepresentation)
    }
}
