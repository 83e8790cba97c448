extension DevicePublicKey {
    /// Verifies a client's signature over a server challenge and tells which convention the client used.
    ///
    /// - Parameters:
    ///   - signature: The signature as the client sent it: standard base64, padded or not.
    ///   - challenge: The challenge string the server issued; clients sign its UTF-8 bytes.
    /// - Returns: The convention under which the signature verifies.
    /// - Throws: ``DeviceKeyError`` when the signature is malformed or verifies under no convention this key accepts.
    public func verify(signature: String, challenge: String) throws(DeviceKeyError) -> SignatureConvention {
        let signatureBytes = try SignatureText.bytes(of: signature)
        return try verifyingKey.convention(of: signatureBytes, over: Array(challenge.utf8))
    }
}
