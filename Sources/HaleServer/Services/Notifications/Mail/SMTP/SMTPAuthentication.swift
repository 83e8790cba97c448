import Foundation

/// SASL PLAIN (RFC 4616) and LOGIN authentication over an already TLS-protected connection.
enum SMTPAuthentication {
    /// The mechanisms this client speaks, in order of preference.
    enum Mechanism: String, Sendable, CaseIterable {
        /// AUTH PLAIN with an initial response.
        case plain = "PLAIN"
        /// AUTH LOGIN: username and password in two challenge rounds.
        case login = "LOGIN"
    }

    /// The preferred mechanism among those the server offers, or nil when none is supported.
    static func chooseMechanism(offered: Set<String>) -> Mechanism? {
        Mechanism.allCases.first { offered.contains($0.rawValue) }
    }

    /// The base64 PLAIN initial response: an empty authorization identity, the username and the password.
    static func plainResponse(for credentials: SMTPCredentials) -> String {
        base64("\0\(credentials.username)\0\(credentials.password)")
    }

    /// Authenticates with `credentials`. Errors never carry the credentials or the server's text.
    static func authenticate(
        _ credentials: SMTPCredentials,
        using mechanism: Mechanism,
        over connection: SMTPConnection
    ) async throws(SMTPError) {
        let reply =
            switch mechanism {
            case .plain: try await authenticatePlain(credentials, over: connection)
            case .login: try await authenticateLogin(credentials, over: connection)
            }
        guard reply.code == 235 else { throw .authenticationFailed(reply) }
    }

    private static func authenticatePlain(
        _ credentials: SMTPCredentials,
        over connection: SMTPConnection
    ) async throws(SMTPError) -> SMTPReply {
        let reply = try await connection.send("AUTH PLAIN " + plainResponse(for: credentials))
        // A server that ignores the initial response asks for it with an empty 334 challenge.
        guard reply.code == 334 else { return reply }
        return try await connection.send(plainResponse(for: credentials))
    }

    private static func authenticateLogin(
        _ credentials: SMTPCredentials,
        over connection: SMTPConnection
    ) async throws(SMTPError) -> SMTPReply {
        let challenge = try await connection.send("AUTH LOGIN")
        guard challenge.code == 334 else { return challenge }
        let usernameReply = try await connection.send(base64(credentials.username))
        guard usernameReply.code == 334 else { return usernameReply }
        return try await connection.send(base64(credentials.password))
    }

    private static func base64(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
    }
}
