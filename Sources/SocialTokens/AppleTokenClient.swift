import Crypto
import Foundation

/// Sign in with Apple's REST API: exchanging an authorization code for a refresh token, and revoking it when the
/// account is deleted, as the App Store requires.
///
/// It does no I/O of its own (HTTP comes through the injected ``SocialHTTPClient``) and keeps the parsed private key,
/// never its PEM; its description leaves the key out.
public struct AppleTokenClient: Sendable {
    /// The audience Apple's REST API requires in a client secret.
    static let clientSecretAudience = "https://appleid.apple.com"
    /// How long a client secret is valid; Apple allows up to six months, and a fresh one is signed per request.
    static let clientSecretLifetime = 300
    /// The longest authorization code or refresh token accepted; Apple's are well under 1 KB.
    static let maximumGrantLength = 4096

    let teamID: String
    let keyID: String
    let tokenURL: String
    let revokeURL: String
    let signingKey: P256.Signing.PrivateKey
    let http: any SocialHTTPClient
    let now: @Sendable () -> Date

    /// A client that signs with `credentials`, calls Apple through `http` and reads the time from `now`.
    ///
    /// Throws `SocialTokenError.notConfigured(.apple)` when the PEM is not a P-256 PKCS#8 key or team/key id are empty.
    public init(
        credentials: AppleCredentials, http: any SocialHTTPClient, now: @escaping @Sendable () -> Date = { Date() }
    ) throws(SocialTokenError) {
        guard Self.isIdentifier(credentials.teamID), Self.isIdentifier(credentials.keyID),
            let signingKey = Self.pkcs8P256Key(credentials.privateKeyPEM)
        else { throw .notConfigured(.apple) }
        self.teamID = credentials.teamID
        self.keyID = credentials.keyID
        self.tokenURL = credentials.tokenURL
        self.revokeURL = credentials.revokeURL
        self.signingKey = signingKey
        self.http = http
        self.now = now
    }

    /// Whether `text` can be a team, key or client id: not empty, and visible ASCII only, so that a stray space or
    /// newline from a configuration file fails here rather than as Apple's `invalid_client`.
    static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255 && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// The P-256 key in a PKCS#8 PEM (`PRIVATE KEY`), the form of Apple's `.p8` files; nil for anything else, a
    /// SEC1 `EC PRIVATE KEY` and keys on other curves included.
    static func pkcs8P256Key(_ pem: String) -> P256.Signing.PrivateKey? {
        let trimmed = pem.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("-----BEGIN PRIVATE KEY-----"), trimmed.hasSuffix("-----END PRIVATE KEY-----") else {
            return nil
        }
        return try? P256.Signing.PrivateKey(pemRepresentation: trimmed)
    }
}

extension AppleTokenClient: CustomStringConvertible, CustomReflectable {
    /// The team id, key id and endpoints; never the key.
    public var description: String {
        "AppleTokenClient(teamID: \(teamID), keyID: \(keyID), tokenURL: \(tokenURL), revokeURL: \(revokeURL))"
    }

    /// The members without the key.
    public var customMirror: Mirror {
        Mirror(self, children: ["teamID": teamID, "keyID": keyID, "tokenURL": tokenURL, "revokeURL": revokeURL])
    }
}
