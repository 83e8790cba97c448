import ByteEncoding
import Crypto
import Foundation
import WebAuthn
import X509

extension AppAttestVerifier {
    /// Verifies an attestation object at `time`, in the order of Apple's "Verify the attestation":
    /// `fmt` is `apple-appattest`; (1) the `x5c` chain leads to the root; (2–4) the nonce extension
    /// 1.2.840.113635.100.8.2 holds SHA-256(authData ‖ clientDataHash); (5) the key ID is the SHA-256 of the
    /// certified key and is `keyID`; (6) the rpIdHash is a configured app's; (7) the counter is 0; (8) the AAGUID is
    /// the configured environment's; (9) the credential ID is `keyID`.
    ///
    /// Accepts what real devices send: extension bytes after the COSE key without the ED flag.
    public func verifyAttestation(
        _ attestationObject: [UInt8], keyID: [UInt8], clientDataHash: [UInt8], at time: Date
    ) async throws(AppAttestError) -> AppAttestAttestation {
        let object = try AppAttestObject(bytes: attestationObject)
        try await validateChain(object.certificates, at: time)
        let authData = object.authenticatorData
        try Self.checkNonce(object.certificates[0], authData: authData.bytes, clientDataHash: clientDataHash)
        let publicKey = try Self.certifiedKey(object.certificates[0], keyID: keyID)
        guard let app = app(forRPIDHash: authData.rpIDHash) else { throw .wrongApp }
        guard authData.signCount == 0 else { throw .counterNotZero }
        guard let credential = authData.attestedCredentialData else { throw .malformed }
        guard credential.aaguid == environment.aaguid else { throw .wrongEnvironment }
        guard ConstantTime.equals(credential.credentialID, keyID) else { throw .keyIDMismatch }
        return AppAttestAttestation(
            keyID: keyID, publicKey: publicKey, receipt: object.receipt, environment: environment, app: app,
            counter: authData.signCount)
    }

    /// Steps 2–4: the certified nonce is SHA-256(authData ‖ clientDataHash).
    private static func checkNonce(
        _ certificate: Certificate, authData: [UInt8], clientDataHash: [UInt8]
    ) throws(AppAttestError) {
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        guard let certified = AppleNonceExtension.nonce(in: certificate), ConstantTime.equals(certified, nonce) else {
            throw .nonceMismatch
        }
    }

    /// Step 5: the certified key is a P-256 key whose X9.63 form hashes to `keyID`.
    private static func certifiedKey(
        _ certificate: Certificate, keyID: [UInt8]
    ) throws(AppAttestError) -> P256.Signing.PublicKey {
        guard let key = P256.Signing.PublicKey(certificate.publicKey) else { throw .chainInvalid }
        guard ConstantTime.equals(Array(SHA256.hash(data: key.x963Representation)), keyID) else {
            throw .keyIDMismatch
        }
        return key
    }
}
