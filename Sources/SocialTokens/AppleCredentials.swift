/// A team's Sign in with Apple key, for the client secret of Apple's REST API.
///
/// Its descriptions and its mirror leave the private key out, so that logging or dumping a configuration cannot leak it.
public struct AppleCredentials: Sendable {
    /// The Apple Developer team id: the client secret's `iss`.
    public var teamID: String
    /// The id of the Sign in with Apple key: the client secret's `kid`.
    public var keyID: String
    /// The `.p8` file Apple lets the team download once: the PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`) of a P-256 key.
    public var privateKeyPEM: String
    /// Apple's token endpoint, where an authorization code is exchanged.
    public var tokenURL: String = "https://appleid.apple.com/auth/token"
    /// Apple's token revocation endpoint.
    public var revokeURL: String = "https://appleid.apple.com/auth/revoke"

    /// Credentials with Apple's published endpoints.
    public init(teamID: String, keyID: String, privateKeyPEM: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
    }
}

extension AppleCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The team id, key id and endpoints; never the private key.
    public var description: String {
        "AppleCredentials(teamID: \(teamID), keyID: \(keyID), privateKeyPEM: <redacted>, tokenURL: \(tokenURL), "
            + "revokeURL: \(revokeURL))"
    }

    /// The same as ``description``.
    public var debugDescription: String {
        description
    }

    /// The members without the private key.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "teamID": teamID, "keyID": keyID, "privateKeyPEM": "<redacted>", "tokenURL": tokenURL,
                "revokeURL": revokeURL,
            ])
    }
}
