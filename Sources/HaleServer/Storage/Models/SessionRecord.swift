/// A session as stored: the session and the secret from which its refresh tokens' successors are derived.
///
/// The secret never leaves the server. Without the plaintext of a refresh token — which is not stored — it reveals
/// nothing.
struct SessionRecord: Codable, Sendable {
    var session: Session
    var tokenSecret: String

    init(session: Session, tokenSecret: String) {
        self.session = session
        self.tokenSecret = tokenSecret
    }

    init(from decoder: any Decoder) throws {
        session = try Session(from: decoder)
        tokenSecret = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .tokenSecret)
    }

    func encode(to encoder: any Encoder) throws {
        try session.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tokenSecret, forKey: .tokenSecret)
    }

    private enum CodingKeys: String, CodingKey {
        case tokenSecret
    }
}
