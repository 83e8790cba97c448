import Foundation
import _CryptoExtras

/// The fields of a Firebase service account's JSON key file that FCM HTTP v1 needs.
public struct FCMServiceAccount: Sendable {
    /// The Firebase project: the `{project}` in `messages:send`.
    public let projectID: String
    /// The account's email: the assertion's `iss`.
    public let clientEmail: String
    /// The key's id: the assertion's `kid`.
    public let privateKeyID: String?
    /// Google's OAuth 2.0 token endpoint, as the file names it.
    public let tokenURI: String
    /// The RSA key that signs assertions.
    let privateKey: _RSA.Signing.PrivateKey

    private struct File: Decodable {
        let project_id: String
        let client_email: String
        let private_key_id: String?
        let private_key: String
        let token_uri: String?
    }

    /// Reads a service account key file; throws a `ConfigError` naming what is missing, never the key itself.
    public init(json: Data) throws {
        guard let file = try? JSONDecoder().decode(File.self, from: json) else {
            throw ConfigError(
                "push.fcm.serviceAccount must be a service account JSON key with project_id, client_email and private_key"
            )
        }
        guard let key = try? _RSA.Signing.PrivateKey(pemRepresentation: file.private_key) else {
            throw ConfigError("push.fcm.serviceAccount's private_key must be an RSA key in PEM")
        }
        projectID = file.project_id
        clientEmail = file.client_email
        privateKeyID = file.private_key_id
        tokenURI = file.token_uri ?? "https://oauth2.googleapis.com/token"
        privateKey = key
    }
}
