import CBOR

/// Attested credential data (WebAuthn L3 §6.5.2): the new credential's AAGUID, ID and public key.
public struct AttestedCredentialData: Sendable {
    /// The authenticator model's AAGUID, 16 bytes.
    public let aaguid: [UInt8]
    /// The credential ID.
    public let credentialID: [UInt8]
    /// The public key.
    public let publicKey: COSEKey
    /// The COSE_Key bytes exactly as the authenticator encoded them; store these.
    public let publicKeyBytes: [UInt8]

    /// The longest credential ID a relying party must accept (§7.1 step 25).
    public static let maximumCredentialIDLength = 1023

    /// Parses attested credential data at the start of `bytes`; returns it and its length.
    static func parse(_ bytes: ArraySlice<UInt8>) throws(WebAuthnError) -> (AttestedCredentialData, Int) {
        guard bytes.count >= 18 else { throw AuthenticatorData.malformed("attested credential data is truncated") }
        let start = bytes.startIndex
        let aaguid = Array(bytes[start..<start + 16])
        let idLength = Int(bytes[start + 16]) << 8 | Int(bytes[start + 17])
        guard idLength <= maximumCredentialIDLength else {
            throw WebAuthnError(.invalidCredentialID, "the credential ID is longer than 1023 bytes")
        }
        guard bytes.count >= 18 + idLength else { throw AuthenticatorData.malformed("the credential ID is truncated") }
        let credentialID = Array(bytes[start + 18..<start + 18 + idLength])
        let keyStart = start + 18 + idLength
        guard let (value, keyLength) = try? COSEKey.decoder.decodePrefix(bytes[keyStart...]) else {
            throw WebAuthnError(.invalidPublicKey, "the credential public key is not valid CBOR")
        }
        let keyBytes = Array(bytes[keyStart..<keyStart + keyLength])
        let data = AttestedCredentialData(
            aaguid: aaguid, credentialID: credentialID, publicKey: try COSEKey(value), publicKeyBytes: keyBytes)
        return (data, 18 + idLength + keyLength)
    }

    /// The AAGUID in its usual textual form, `01020304-0506-0708-0102-030405060708`.
    public var aaguidString: String {
        let hex = aaguid.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(
                hex[
                    hex.index(
                        hex.startIndex, offsetBy: range.lowerBound)..<hex.index(
                            hex.startIndex, offsetBy: range.upperBound)])
        }
        return groups.joined(separator: "-")
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
