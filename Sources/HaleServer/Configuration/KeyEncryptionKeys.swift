import Foundation

/// Where the key-encryption key comes from: `secrets.keyEncryptionKey` (from the environment, or a file named by
/// `HALE_SECRETS_KEY_ENCRYPTION_KEY_FILE`), or, for an embedded SQLite installation without one, `hale.kek` in the
/// data directory, made on first use so that `hale serve` needs no setup. Under PostgreSQL there is no file: every
/// instance must be given the same key, and `hale serve` refuses to start without one.
public enum KeyEncryptionKeys {
    /// The embedded installation's key file, in `server.dataDirectory`.
    public static let fileName = "hale.kek"

    /// The sealer for `configuration`; nil under PostgreSQL when no key is configured.
    public static func sealer(for configuration: HaleConfiguration) throws -> SecretSealer? {
        let previous = try configuration.secrets.previousKeyEncryptionKeys.map {
            try SecretSealer.Key(base64: $0, setting: "secrets.previousKeyEncryptionKeys")
        }
        if let configured = configuration.secrets.keyEncryptionKey {
            return SecretSealer(
                current: try SecretSealer.Key(base64: configured, setting: "secrets.keyEncryptionKey"),
                previous: previous)
        }
        guard case .sqlite = configuration.database.location else { return nil }
        let file = configuration.server.dataDirectory.appendingPathComponent(fileName)
        return SecretSealer(
            current: try embeddedKey(at: file, in: configuration.server.dataDirectory), previous: previous)
    }

    /// What `hale serve` says when PostgreSQL has no key.
    public static let missing = ConfigError(
        "secrets.keyEncryptionKey is required with PostgreSQL: it seals the signing keys and tokens Hale keeps in the"
            + " database, and every instance needs the same one. Make one with `openssl rand -base64 32` and give it"
            + " to each instance as HALE_SECRETS_KEY_ENCRYPTION_KEY, or in a file named by"
            + " HALE_SECRETS_KEY_ENCRYPTION_KEY_FILE.")

    /// The key in `file`, made (32 random bytes, `0600`) when there is none.
    private static func embeddedKey(at file: URL, in directory: URL) throws -> SecretSealer.Key {
        let setting = "the embedded installation's key-encryption key \(file.path)"
        try PrivateDirectory.prepare(directory, setting: "server.dataDirectory")
        if let existing = try read(file) { return try SecretSealer.Key(base64: existing, setting: setting) }
        let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if descriptor >= 0 {
            let written = Array((key + "\n").utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            guard written == key.utf8.count + 1 else { throw ConfigError("cannot write \(file.path)") }
            return try SecretSealer.Key(base64: key, setting: setting)
        }
        // Another process made it first: use theirs.
        guard errno == EEXIST, let made = try read(file) else { throw ConfigError("cannot make \(file.path)") }
        return try SecretSealer.Key(base64: made, setting: setting)
    }

    /// The file's text; nil when there is no file. Refused when others may read it, or another user owns it.
    private static func read(_ file: URL) throws -> String? {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return nil }
        guard info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            throw ConfigError(
                "\(file.path) holds the key that seals Hale's secrets, and others may read or own it: `chmod 600` it"
                    + " as Hale's own user")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw ConfigError("cannot read \(file.path)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
