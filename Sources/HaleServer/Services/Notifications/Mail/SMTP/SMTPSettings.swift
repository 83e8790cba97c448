import NIOCore

/// How the connection to the SMTP server is protected. There is deliberately no plaintext option.
enum SMTPSecurity: Sendable, Equatable {
    /// Plain TCP upgraded with STARTTLS before anything else (usually port 587); a server without STARTTLS is refused.
    case startTLS
    /// TLS from the first byte (usually port 465).
    case implicitTLS
}

/// A username and password for AUTH PLAIN or AUTH LOGIN. Printing it never shows the password.
struct SMTPCredentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The SASL authentication identity.
    var username: String
    /// The password; only ever written to a TLS-protected connection.
    var password: String

    /// Creates credentials.
    init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The username, with the password redacted.
    var description: String { "SMTPCredentials(username: \(username), password: <redacted>)" }
    /// Same as `description`.
    var debugDescription: String { description }
    /// A mirror without the password, so `dump` does not print it either.
    var customMirror: Mirror { Mirror(self, children: ["username": username, "password": "<redacted>"]) }
}

/// Where and how to submit mail. Certificate and host name verification are always on and cannot be turned off.
struct SMTPSettings: Sendable {
    /// The server's host name or IP address; the certificate must be valid for it.
    var host: String
    /// The TCP port, typically 587 for `.startTLS` and 465 for `.implicitTLS`.
    var port: Int
    /// STARTTLS or implicit TLS.
    var security: SMTPSecurity
    /// Credentials for AUTH, or nil to send without authenticating.
    var credentials: SMTPCredentials?
    /// A PEM file whose certificates are the only trusted roots; nil trusts the system's default roots.
    var trustedCAFilePath: String?
    /// The name sent with EHLO.
    var heloName: String
    /// How long to wait for the TCP connection.
    var connectTimeout: TimeAmount
    /// How long to wait for each reply from the server, including the TLS handshake.
    var replyTimeout: TimeAmount

    /// Creates settings with a 10 s connect timeout and a 30 s per-reply timeout by default.
    init(
        host: String,
        port: Int,
        security: SMTPSecurity,
        credentials: SMTPCredentials? = nil,
        trustedCAFilePath: String? = nil,
        heloName: String = "localhost",
        connectTimeout: TimeAmount = .seconds(10),
        replyTimeout: TimeAmount = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.credentials = credentials
        self.trustedCAFilePath = trustedCAFilePath
        self.heloName = heloName
        self.connectTimeout = connectTimeout
        self.replyTimeout = replyTimeout
    }

    /// Throws a permanent error for settings that can never work, before any connection is made.
    func validate() throws(SMTPError) {
        guard (1...65535).contains(port) else { throw .permanent("SMTP port \(port) is out of range") }
        guard !host.isEmpty else { throw .permanent("SMTP host is empty") }
        let heloIsSafe = heloName.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) }
        guard !heloName.isEmpty, heloName.utf8.count <= 255, heloIsSafe else {
            throw .permanent("EHLO name must be 1–255 printable ASCII characters without spaces")
        }
    }
}
