import ByteEncoding
import Crypto
import WebAuthn

extension AppAttestVerifier {
    /// Verifies an assertion, in the order of Apple's "Verify the assertion": (1–3) the DER ECDSA signature is
    /// `publicKey`'s over nonce = SHA-256(authenticatorData ‖ clientDataHash), that is ECDSA-SHA256 over the nonce;
    /// (4) the rpIdHash is `app`'s, a configured app; (5) the counter is greater than `previousCounter`.
    ///
    /// Accepts 37-byte authenticator data with the AT flag set, as real devices send it. Returns the new counter,
    /// for the caller to store.
    public func verifyAssertion(
        _ assertion: [UInt8], publicKey: P256.Signing.PublicKey, clientDataHash: [UInt8], previousCounter: UInt32,
        app: AppAttestApp
    ) throws(AppAttestError) -> UInt32 {
        let parsed = try AppAttestAssertion(bytes: assertion)
        let authData = parsed.authenticatorData
        let nonce = Array(SHA256.hash(data: authData.bytes + clientDataHash))
        guard COSEKey.p256(publicKey).isValidSignature(parsed.signature, for: nonce) else { throw .badSignature }
        guard apps.contains(app), ConstantTime.equals(authData.rpIDHash, app.rpIDHash) else { throw .wrongApp }
        guard authData.signCount > previousCounter else { throw .counterReplay }
        return authData.signCount
    }
}
