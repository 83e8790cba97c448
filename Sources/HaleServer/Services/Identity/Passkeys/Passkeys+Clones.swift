import Foundation
import Logging
import WebAuthn

extension Passkeys {
    /// What a sign-in that shows a sign of a cloned authenticator gets (`passkeys.clonedAuthenticators`).
    public enum ClonePolicy: String, Sendable {
        /// Refused with the generic 401, as any failed sign-in.
        case refuse
        /// Let in, as the counter may have gone back for an innocent reason (a restored or buggy authenticator).
        case flag
    }

    /// A sign-in whose signature verified showed `signal`: marks the passkey, records the event and alerts the
    /// account's devices in one transaction, then refuses the sign-in or records it without lowering its counter.
    func suspectClone(_ passkey: PasskeyCredential, signal: CloneSignal, logger: Logger) async throws {
        let refused = clonePolicy == .refuse
        let now = clock.now()
        let event = audit.prepare(
            .passkeyCloneSuspected, AuditTrail.Subject(account: passkey.accountId, device: passkey.deviceId),
            details: [
                "passkeyId": passkey.id.uuidString.lowercased(), "signal": signal.rawValue,
                "refused": refused ? "true" : "false",
            ],
            alertExcluding: [])
        try await repository.markSuspectedClone(passkey.id, signal: signal, at: now, audit: event)
        logger.warning(
            "passkey shows a sign of a cloned authenticator",
            metadata: ["passkey": "\(passkey.id)", "signal": "\(signal.rawValue)", "refused": "\(refused)"])
        if refused { throw Self.authenticationFailed }
        try await repository.recordFlaggedSignIn(passkey.id, at: now)
    }
}
