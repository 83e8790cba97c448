/// A sign, in a sign-in whose signature verified, that the credential's private key is in a second authenticator:
/// WebAuthn Level 3 §7.2 steps 18 and 22.
public enum CloneSignal: String, Sendable, Equatable, CaseIterable {
    /// The signature counter did not grow past the stored one: another authenticator with the same key has been
    /// counting too (or this one went back).
    case signCountRegression = "sign_count_regression"
    /// The backup eligibility differs from the one registered, which an authenticator fixes for a credential's
    /// life: a device-bound key now claims it may be synced, or the reverse.
    case backupEligibilityChanged = "backup_eligibility_changed"

    /// The signal `authenticatorData` shows against `credential`, if any.
    init?(_ authenticatorData: AuthenticatorData, _ credential: StoredCredential) {
        let count = authenticatorData.signCount
        if authenticatorData.flags.contains(.backupEligible) != credential.backupEligible {
            self = .backupEligibilityChanged
        } else if (count != 0 || credential.signCount != 0) && count <= credential.signCount {
            self = .signCountRegression
        } else {
            return nil
        }
    }

    /// The error `verify` refuses it with.
    var error: WebAuthnError {
        switch self {
        case .signCountRegression:
            WebAuthnError(.signCountRegression, "the signature counter did not increase")
        case .backupEligibilityChanged:
            WebAuthnError(.backupEligibilityChanged, "the credential's backup eligibility changed")
        }
    }
}

/// What `AuthenticationVerifier.verify` does with a `CloneSignal`.
public enum CloneSignalHandling: Sendable, Equatable {
    /// Throws its error: the sign-in is refused.
    case refuse
    /// Returns the sign-in with the signal, for the caller to record and decide.
    case report
}
