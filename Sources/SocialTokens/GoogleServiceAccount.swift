import Foundation
import StrictJSON
import _CryptoExtras

/// A Google service account's JSON key file, as the Firebase console and Google Cloud hand it out: what FCM's OAuth
/// assertions and Firebase custom tokens are signed with.
///
/// It keeps the parsed RSA key, never its PEM, and its descriptions and mirror leave the key out, so that logging or
/// dumping a configuration cannot leak it.
public struct GoogleServiceAccount: Sendable {
    /// Why a key file cannot be used; the reason names the member at fault, never a value.
    public struct Malformed: Error, Sendable, Equatable {
        /// Such as "client_email is missing".
        public let reason: String

        /// A key file refused for `reason`.
        public init(reason: String) {
            self.reason = reason
        }
    }

    /// The account's email (`client_email`): the `iss` and `sub` of what it signs.
    public let clientEmail: String
    /// The key's id (`private_key_id`), which Google's libraries put in the JWS header as `kid`.
    public let privateKeyID: String?
    /// The project the account belongs to (`project_id`).
    public let projectID: String?
    /// Google's OAuth 2.0 token endpoint, as the file names it (`token_uri`).
    public let tokenURI: String?
    let privateKey: _RSA.Signing.PrivateKey

    /// The longest key file read: real ones are about 2.3 KB.
    static let maximumSize = 64 * 1024

    /// Reads a key file: a JSON object with `client_email` and `private_key` (an RSA key in PEM, PKCS#8 or PKCS#1)
    /// and optionally `private_key_id`, `project_id` and `token_uri`, each a string. `type`, when present, must be
    /// `service_account`.
    public init(json: [UInt8]) throws(Malformed) {
        guard json.count <= Self.maximumSize, let members = JSONObject.decode(json) else {
            throw Malformed(reason: "it is not a JSON object of at most 64 KiB")
        }
        if let type = members["type"], type != .string("service_account") {
            throw Malformed(reason: "type is not service_account")
        }
        let email = try Self.string(members, "client_email")
        guard let email, !email.isEmpty, email.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Malformed(reason: "client_email is missing")
        }
        guard let pem = try Self.string(members, "private_key") else {
            throw Malformed(reason: "private_key is missing")
        }
        guard let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) else {
            throw Malformed(reason: "private_key is not an RSA key of 2048 bits or more in PEM")
        }
        clientEmail = email
        privateKeyID = try Self.string(members, "private_key_id")
        projectID = try Self.string(members, "project_id")
        tokenURI = try Self.string(members, "token_uri")
        privateKey = key
    }

    /// RSASSA-PKCS1-v1_5 with SHA-256 over `signingInput`: a JWS RS256 signature (RFC 7518 §3.3).
    public func rs256Signature(for signingInput: [UInt8]) throws -> [UInt8] {
        Array(try privateKey.signature(for: signingInput, padding: .insecurePKCS1v1_5).rawRepresentation)
    }

    /// The public half of the key, for checking what the account signed.
    public var publicKey: _RSA.Signing.PublicKey { privateKey.publicKey }

    /// The member `name` when it is a string; nil when absent or null; malformed otherwise.
    private static func string(_ members: [String: JSONValue], _ name: String) throws(Malformed) -> String? {
        switch members[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw Malformed(reason: "\(name) is not a string")
        }
    }
}

extension GoogleServiceAccount: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The email, key id and project; never the key.
    public var description: String {
        "GoogleServiceAccount(clientEmail: \(clientEmail), privateKeyID: \(privateKeyID ?? "nil"), "
            + "projectID: \(projectID ?? "nil"), privateKey: <redacted>)"
    }

    /// The same as ``description``.
    public var debugDescription: String {
        description
    }

    /// The members without the key.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "clientEmail": clientEmail, "privateKeyID": privateKeyID as Any, "projectID": projectID as Any,
                "tokenURI": tokenURI as Any, "privateKey": "<redacted>",
            ])
    }
}
