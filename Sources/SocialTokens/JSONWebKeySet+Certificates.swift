import X509
import _CryptoExtras

extension JSONWebKeySet {
    /// Reads a certificate set as Google publishes its securetoken keys: a JSON object whose members map each `kid`
    /// to an X.509 certificate in PEM. Nil unless the document is a JSON object. A member that is not a string, not
    /// a certificate, or whose key is not RSA of 2048 to 8192 bits, is skipped, as an unusable JWK is.
    ///
    /// Only the certificate's public key is used, as Firebase's Admin SDKs use it: Google rotates the set long
    /// before a certificate expires, so its validity dates and issuer are not what makes a key trusted; the set's
    /// origin is.
    init?(certificates bytes: [UInt8]) {
        guard let members = JSONObject.decode(bytes) else { return nil }
        var keys: [String: JSONWebKey] = [:]
        for (keyID, value) in members {
            guard !keyID.isEmpty, let pem = value.string, let key = Self.rsaKey(certificatePEM: pem) else { continue }
            keys[keyID] = JSONWebKey(keyID: keyID, material: .rsa(key))
        }
        self.init(keys: keys)
    }

    /// The RSA key of the certificate in `pem`; nil for anything else.
    private static func rsaKey(certificatePEM pem: String) -> _RSA.Signing.PublicKey? {
        guard let certificate = try? Certificate(pemEncoded: pem),
            let key = _RSA.Signing.PublicKey(certificate.publicKey),
            JSONWebKey.rsaModulusBits.contains(key.keySizeInBits)
        else { return nil }
        return key
    }
}
