import SwiftASN1
import X509

/// The KeyDescription in an Android Key Attestation certificate extension, as far as WebAuthn §8.4 reads it.
///
/// The schema is Android's (developer.android.com/privacy-and-security/security-key-attestation): a SEQUENCE whose
/// fifth member is `attestationChallenge` and whose seventh and eighth are the `softwareEnforced` and `teeEnforced`
/// (hardware-enforced, TEE or StrongBox) AuthorizationLists. Every version of the schema keeps those positions.
struct AndroidKeyDescription: Sendable {
    /// The extension's OID (§8.4.1).
    static let oid: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17]

    /// An AuthorizationList: a SEQUENCE of optional members, each EXPLICITly context-tagged by its Keymaster tag.
    struct AuthorizationList: Sendable {
        /// `purpose` ([1] SET OF INTEGER).
        var purposes: Set<Int> = []
        /// `origin` ([702] INTEGER).
        var origin: Int?
        /// Whether `allApplications` ([600] NULL) is present.
        var allApplications = false
    }

    /// `attestationChallenge`: the clientDataHash the key was attested for.
    let attestationChallenge: [UInt8]
    /// `softwareEnforced`.
    let softwareEnforced: AuthorizationList
    /// `teeEnforced`.
    let teeEnforced: AuthorizationList

    /// Thrown inside the parser for any structure that is not the schema's; the caller reports it.
    private struct Malformed: Error {}

    /// Reads the extension of `certificate`; `nil` if it has none or it is not a KeyDescription.
    init?(certificate: Certificate) {
        guard let value = certificate.extensions[oid: Self.oid]?.value,
            let parsed = try? Self.parse(Array(value))
        else {
            return nil
        }
        self = parsed
    }

    private init(attestationChallenge: [UInt8], softwareEnforced: AuthorizationList, teeEnforced: AuthorizationList) {
        self.attestationChallenge = attestationChallenge
        self.softwareEnforced = softwareEnforced
        self.teeEnforced = teeEnforced
    }

    private static func parse(_ der: [UInt8]) throws -> AndroidKeyDescription {
        let members = try constructed(try DER.parse(der), .sequence)
        guard members.count >= 8 else { throw Malformed() }
        let challenge = try ASN1OctetString(derEncoded: members[4])
        return AndroidKeyDescription(
            attestationChallenge: Array(challenge.bytes), softwareEnforced: try authorizationList(members[6]),
            teeEnforced: try authorizationList(members[7]))
    }

    private static func authorizationList(_ node: ASN1Node) throws -> AuthorizationList {
        var list = AuthorizationList()
        for entry in try constructed(node, .sequence) where entry.identifier.tagClass == .contextSpecific {
            switch entry.identifier.tagNumber {
            case 1:
                let values = try constructed(try explicitContent(of: entry), .set)
                list.purposes = Set(try values.map { try Int(derEncoded: $0) })
            case 702:
                list.origin = try Int(derEncoded: try explicitContent(of: entry))
            case 600:
                list.allApplications = true
            default:
                continue
            }
        }
        return list
    }

    /// The members of a constructed node with the given identifier.
    private static func constructed(_ node: ASN1Node, _ identifier: ASN1Identifier) throws -> [ASN1Node] {
        guard node.identifier == identifier, case .constructed(let members) = node.content else { throw Malformed() }
        return Array(members)
    }

    /// The single node an EXPLICIT tag wraps.
    private static func explicitContent(of node: ASN1Node) throws -> ASN1Node {
        guard case .constructed(let inner) = node.content else { throw Malformed() }
        let members = Array(inner)
        guard members.count == 1 else { throw Malformed() }
        return members[0]
    }
}
