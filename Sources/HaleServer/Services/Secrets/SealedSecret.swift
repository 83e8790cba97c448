import Foundation

/// Opening a secret as Hale stores it: sealed under a key-encryption key, or, stored by a version from before
/// sealing and not sealed yet (the next `hale serve` seals it), in the clear.
enum SealedSecret {
    /// A PEM private key stored before keys were sealed.
    static func isLegacyPEM(_ value: String) -> Bool {
        value.hasPrefix("-----BEGIN")
    }

    /// The secret `value` holds for `purpose`.
    static func open(_ value: String, purpose: String, sealer: SecretSealer?) throws -> String {
        if isLegacyPEM(value) { return value }
        guard let sealer else { throw KeyEncryptionKeys.missing }
        guard let text = sealer.openText(value, purpose: purpose) else { throw unopenable(value, sealer: sealer) }
        return text
    }

    /// Seals `secret` for `purpose`; there must be a key-encryption key.
    static func seal(_ secret: String, purpose: String, sealer: SecretSealer?) throws -> String {
        guard let sealer else { throw KeyEncryptionKeys.missing }
        return try sealer.seal(secret, purpose: purpose)
    }

    private static func unopenable(_ value: String, sealer: SecretSealer) -> ConfigError {
        ConfigError(
            "a secret in the database does not open with the configured key-encryption key (\(sealer.current.id)):"
                + " it was sealed under another, which secrets.previousKeyEncryptionKeys must hold until"
                + " `hale keys rewrap` has run")
    }
}
