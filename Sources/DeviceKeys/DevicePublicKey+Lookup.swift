import Crypto

extension DevicePublicKey {
    /// Where to look for the key that made a signature, from the signature alone: what lets a server find a
    /// signer among keys that share a device fingerprint at a cost that does not grow with how many do.
    public enum SignatureLookup: Sendable, Equatable {
        /// A DER ECDSA signature: the thumbprints of every P-256 key that could have made it over the challenge in
        /// either ECDSA convention, at most four. The signer, if registered, is one of them.
        case p256(thumbprints: [String])
        /// An RSA signature, as long as the modulus of the key that made it: only RSA keys of that size can have.
        case rsa(modulusBytes: Int)
        /// Neither: no key verifies it.
        case none

        /// The RSA key sizes, in bits, whose signatures are `modulusBytes` long.
        public static func rsaBits(modulusBytes: Int) -> ClosedRange<Int> {
            (modulusBytes * 8 - 7)...(modulusBytes * 8)
        }
    }

    /// How to find the key that made `signature` over `challenge`.
    public static func lookup(signature: String, challenge: String) -> SignatureLookup {
        guard let bytes = try? SignatureText.bytes(of: signature) else { return .none }
        if let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: bytes) {
            let message = Array(challenge.utf8)
            let once = Array(SHA256.hash(data: message))
            let twice = Array(SHA256.hash(data: once))
            var thumbprints: [String] = []
            for digest in [once, twice] {
                for point in P256KeyRecovery.candidates(of: ecdsa, digest: digest) {
                    guard let key = try? P256.Signing.PublicKey(x963Representation: point) else { continue }
                    let thumbprint = StandardBase64.encodeURLSafeUnpadded(
                        Array(SHA256.hash(data: Array(key.derRepresentation))))
                    if !thumbprints.contains(thumbprint) { thumbprints.append(thumbprint) }
                }
            }
            return .p256(thumbprints: thumbprints)
        }
        guard (256...1024).contains(bytes.count) else { return .none }
        return .rsa(modulusBytes: bytes.count)
    }
}
