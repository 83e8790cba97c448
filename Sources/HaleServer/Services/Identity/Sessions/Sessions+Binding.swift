import ByteEncoding
import Foundation
import Logging

extension Sessions {
    /// What a refresh's `X-Attestation-*` headers proved.
    enum RefreshProof: Sendable, Equatable {
        /// None were sent, or binding is off.
        case absent
        /// They were sent and did not prove a key; why, for the audit event and the log, never for the answer.
        case failed(String)
        /// An assertion by this key over the refresh's nonce and body, whose counter the rotation advances.
        case proved(AttestedAssertion)

        var assertion: AttestedAssertion? {
            if case .proved(let assertion) = self { assertion } else { nil }
        }
    }

    /// Checks a refresh's attestation before the refresh's transaction, reading the session and its bound key in one
    /// statement and writing nothing: the rotation advances the key's counter in its own transaction. For a bound
    /// session the assertion must be by its key; for an unbound one, by any key of the account. A token that is
    /// unknown, or a session no longer active, proves nothing: the rotation answers for it.
    func proof(of attestation: RefreshAttestation?, for refreshToken: String, logger: Logger) async throws
        -> RefreshProof
    {
        guard binding.mode != .off, let attestation, let instances = binding.instances,
            let state = try await repository.bindingState(ofTokenHash: OpaqueToken.hash(refreshToken)),
            state.isActive(at: clock.now())
        else {
            return .absent
        }
        guard attestation.attestation.platform == .ios else { return .failed("not an App Attest assertion") }
        let expected = SessionBinding.nonce(for: refreshToken, secret: state.tokenSecret)
        guard ConstantTime.equals(attestation.attestation.nonce, expected) else { return .failed("wrong nonce") }
        let candidates = try await candidates(for: state, among: instances)
        do {
            guard
                let proved = try await instances.check(
                    attestation.attestation.token, over: attestation.requestHash, among: candidates, logger: logger)
            else {
                return .failed("assertion by no key of the session's")
            }
            return .proved(proved)
        } catch let refused as HaleError where refused.code == .attestationFailed {
            return .failed("assertion refused")
        }
    }

    /// The keys a refresh of the session may prove: its bound key; while that binding is provisional, any key of the
    /// session's device (the newest, bound at the start, may be one planted there with a stolen access token); for an
    /// unbound session, any key of the account.
    private func candidates(for state: SessionBindingState, among instances: any AttestedInstances) async throws
        -> [AppAttestKey]
    {
        guard state.boundKey != nil else { return try await instances.keys(of: state.account) }
        guard state.provisional, let device = state.device else { return state.boundKeyRecord.map { [$0] } ?? [] }
        return try await instances.keys(of: state.account).filter { $0.deviceId == device }
    }

    /// What the rotation does about binding, holding the session's lock: a bound session whose refresh did not
    /// prove its key (or, while provisional, a key of its device) is revoked with its audit event and an alert to every device, its own too (its app will find
    /// itself signed out); an unbound one is bound to the key proved, or with `required` refused. A proved
    /// assertion's counter advances here, in the rotation's transaction, so of two refreshes with one assertion
    /// only one counts. Returns the outcome that ends the refresh, or nil to rotate on.
    func bind(
        _ record: inout SessionRecord, proof: RefreshProof, in repository: any SessionRepository, at now: Date
    ) async throws -> RotationOutcome? {
        let session = record.session
        var proved = proof.assertion
        if let assertion = proved, try await !repository.advance(assertion, at: now) { proved = nil }
        if let bound = session.boundKey {
            if let key = proved?.instance, key.id == bound.id || session.attestationProvisional {
                if session.attestationProvisional { try await confirm(&record, boundTo: key, in: repository) }
                return nil
            }
            let reason =
                if case .failed(let why) = proof { why } else if proof.assertion != nil { "counter replayed" } else {
                    "no attestation"
                }
            let event = audit.prepare(
                .boundRefreshRefused,
                AuditTrail.Subject(account: session.accountId, device: session.deviceId, session: session.id),
                details: ["reason": reason], alertExcluding: [])
            _ = try await repository.revoke(
                session.id, of: session.accountId, reason: Self.bindingRefusedReason, at: now, audit: event)
            return .bindingRefused(session, reason: reason)
        }
        if let key = proved?.instance {
            try await confirm(&record, boundTo: key, in: repository)
            return nil
        }
        return binding.mode == .required ? .bindingRequired : nil
    }

    /// Binds the session to the key its refresh proved, for good.
    private func confirm(
        _ record: inout SessionRecord, boundTo key: AttestedInstanceKey, in repository: any SessionRepository
    )
        async throws
    {
        try await repository.bind(record.session.id, to: key)
        record.session.attestationKeyId = key.id
        record.session.attestationKeyThumbprint = key.thumbprint
        record.session.attestationProvisional = false
    }

    static let bindingRefusedReason = "binding_refused"

    /// The 401 for a bound session's refresh that did not prove its key; the session has been revoked.
    static let bindingRefused = HaleError(
        .bindingRefused, .unauthenticated,
        message:
            "This session is bound to an attested app instance, and the refresh did not prove it came from there;"
            + " the session has been revoked. Sign in again.")

    /// The 401 for a refresh that must bind its session (`required`) and proved no key. The session is left as it
    /// was, so the app may retry with an attestation.
    static let bindingRequired = HaleError(
        .attestationRequired, .unauthenticated,
        message:
            "This server binds sessions to an attested app instance: refresh with X-Attestation-Platform: ios,"
            + " X-Attestation-Nonce (the attestationNonce of the last token answer) and X-Attestation-Token (an App"
            + " Attest assertion over the request hash).")
}
