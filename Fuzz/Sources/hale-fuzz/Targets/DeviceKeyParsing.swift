import DeviceKeys

extension FuzzTarget {
    /// `Sources/DeviceKeys`: a device public key as registered, then a signature over a challenge as a client sends
    /// them. Inputs: `P` (PEM text) or `D` (DER SubjectPublicKeyInfo), then the key, the signature text and the
    /// challenge as parts.
    static let deviceKeys = FuzzTarget(name: "device-keys") { bytes in
        guard let (mode, parts) = FuzzInput.modeAndParts(bytes) else { return }
        let key: DevicePublicKey?
        switch mode {
        case UInt8(ascii: "P"): key = try? DevicePublicKey(pemRepresentation: FuzzInput.text(parts[0]))
        case UInt8(ascii: "D"): key = try? DevicePublicKey(derRepresentation: Array(parts[0]))
        default: return
        }
        guard let key else { return }
        _ = key.thumbprint
        _ = try? key.verify(
            signature: FuzzInput.text(parts[ifPresent: 1] ?? []), challenge: FuzzInput.text(parts[ifPresent: 2] ?? []))
    }
}
