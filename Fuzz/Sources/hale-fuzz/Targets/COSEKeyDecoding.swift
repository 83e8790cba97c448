import WebAuthn

extension FuzzTarget {
    /// `Sources/WebAuthn/COSE`: a credential public key as stored at registration, then a signature check with it, so
    /// odd keys (short or huge RSA moduli, off-curve points) reach the verifiers. Inputs are COSE_Key CBOR bytes.
    static let coseKey = FuzzTarget(name: "cose-key") { bytes in
        guard let key = try? COSEKey(bytes: bytes) else { return }
        _ = key.isValidSignature(bytes, for: bytes)
    }
}
