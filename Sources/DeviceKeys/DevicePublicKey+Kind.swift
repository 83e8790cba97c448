extension DevicePublicKey {
    /// The kind of a device key, as its SubjectPublicKeyInfo says.
    public enum Kind: Sendable, Hashable {
        /// An EC key on NIST P-256 (secp256r1), as iOS, Android and React Native on iOS create.
        case p256
        /// An RSA key with a modulus of `bits` bits, as React Native on Android creates.
        case rsa(bits: Int)
    }
}
