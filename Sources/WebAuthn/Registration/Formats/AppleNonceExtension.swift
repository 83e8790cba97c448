import SwiftASN1
import X509

/// The certificate extension in which Apple's attestation CAs certify a nonce, used by WebAuthn's `apple` format
/// (§8.8) and by App Attest alike.
public enum AppleNonceExtension {
    /// Its OID, 1.2.840.113635.100.8.2.
    public static let oid: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 2]

    /// The nonce in the extension: `SEQUENCE { [1] EXPLICIT OCTET STRING }`, or `nil` if it is absent or malformed.
    public static func nonce(in certificate: Certificate) -> [UInt8]? {
        guard let value = certificate.extensions[oid: oid]?.value,
            let root = try? DER.parse(Array(value)), root.identifier == .sequence,
            case .constructed(let members) = root.content
        else {
            return nil
        }
        let nonceTag = ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)
        guard let tagged = members.first(where: { $0.identifier == nonceTag }),
            case .constructed(let inner) = tagged.content,
            let octets = Array(inner).first.flatMap({ try? ASN1OctetString(derEncoded: $0) })
        else {
            return nil
        }
        return Array(octets.bytes)
    }
}
