import Foundation

extension HaleConfiguration {
    /// Mail: through an SMTP server, or written as files when none is configured.
    public struct Email: Sendable {
        /// The SMTP server; nil to write each mail as a file in `directory`.
        var smtp: SMTPSettings?
        /// The sender address.
        public var from: String
        /// The product named in mails.
        public var productName: String
        /// Where mails are written without an SMTP server.
        public var directory: URL
        /// How many codes are allowed.
        public var limits: EmailAddresses.Limits
        /// Whether a person may sign in with an email code.
        public var signIn: Bool
        /// How long a recovery by email waits.
        public var recoveryDelay: Duration
    }

    static func email(_ values: ConfigValues, dataDirectory: URL, addressesPerAccount: Int) throws -> Email {
        let from = try values.string("email.from")
        guard MailAddress.isValid(from) else { throw ConfigError("email.from must be an email address") }
        let productName = try values.string("email.productName")
        guard (1...64).contains(productName.count), !productName.contains(where: \.isNewline) else {
            throw ConfigError("email.productName must be 1 to 64 characters on one line")
        }
        let directory = try values.string("email.directory")
        let limits = EmailAddresses.Limits(
            codesPerAddress: try positive(values, "email.codesPerAddress"),
            codesPerAccount: try positive(values, "email.codesPerAccount"),
            addressesPerAccount: addressesPerAccount)
        return Email(
            smtp: try smtp(values), from: from, productName: productName,
            directory: directory.isEmpty
                ? dataDirectory.appendingPathComponent("mail", isDirectory: true)
                : URL(fileURLWithPath: directory, isDirectory: true),
            limits: limits, signIn: try values.boolean("email.signIn"),
            recoveryDelay: try recoveryDelay(values))
    }

    private static func recoveryDelay(_ values: ConfigValues) throws -> Duration {
        let text = try values.string("recovery.emailDelay")
        guard let delay = ConfigDuration.parse(text), delay <= .seconds(30 * 86_400) else {
            throw ConfigError("recovery.emailDelay must be a duration from 0s to 30d, such as 24h, not \"\(text)\"")
        }
        return delay
    }

    private static func positive(_ values: ConfigValues, _ path: String) throws -> Int {
        let value = try values.integer(path)
        guard (1...10_000).contains(value) else { throw ConfigError("\(path) must be 1 to 10000") }
        return value
    }

    private static func smtp(_ values: ConfigValues) throws -> SMTPSettings? {
        let host = try values.string("email.smtp.host")
        guard !host.isEmpty else { return nil }
        let port = try values.integer("email.smtp.port")
        guard (1...65_535).contains(port) else { throw ConfigError("email.smtp.port must be 1 to 65535") }
        let security: SMTPSecurity
        switch try values.string("email.smtp.security") {
        case "starttls": security = .startTLS
        case "tls": security = .implicitTLS
        case let other: throw ConfigError("email.smtp.security must be starttls or tls, not \"\(other)\"")
        }
        let username = try values.string("email.smtp.username")
        let password = try values.string("email.smtp.password")
        guard username.isEmpty == password.isEmpty else {
            throw ConfigError("email.smtp.username and email.smtp.password go together")
        }
        let caFile = try values.string("email.smtp.caFile")
        return SMTPSettings(
            host: host, port: port, security: security,
            credentials: username.isEmpty ? nil : SMTPCredentials(username: username, password: password),
            trustedCAFilePath: caFile.isEmpty ? nil : caFile)
    }
}
