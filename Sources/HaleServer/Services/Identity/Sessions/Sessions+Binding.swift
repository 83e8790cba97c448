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
        /// A Play Integrity token of this Android app over the refresh's nonce and body.
        case provedApp(String)
        /// None were sent, and the app says Google's Play Integrity service could not be reached: why, as it said.
        case unavailable(String)

        var assertion: AttestedAssertion? {
            if case .proved(let assertion) = self { assertion } else { nil }
        }
    }

    /// Checks a refresh's attestation before the refresh's transaction, reading the session and its bound key in one
    /// statement and writing nothing: the rotation advances the key's counter in its own transaction. For a bound
    /// session the assertion must be by its key; for an unbound one, by any key of the account. A token that is
    /// unknown, or a session no longer active, proves nothing: the rotation answers for it.
    func proof(
        of attestation: RefreshAttestation?, unavailable: String?, for refreshToken: String, logger: Logger
    ) async throws -> RefreshProof {
        guard binding.mode != .off, attestation != nil || unavailable != nil, let instances = binding.instances,
            let state = try await repository.bindingState(ofTokenHash: OpaqueToken.hash(refreshToken)),
            state.isActive(at: clock.now())
        else {
            return .absent
        }
        guard let attestation else { return unavailable.map(RefreshProof.unavailable) ?? .absent }
        let expected = SessionBinding.nonce(for: refreshToken, secret: state.tokenSecret)
        guard ConstantTime.equals(attestation.attestation.nonce, expected) else { return .failed("wrong nonce") }
        if attestation.attestation.platform == .android {
            guard state.boundKey == nil else { return .failed("not an App Attest assertion") }
            guard
                let app = await instances.checkPlayIntegrity(
                    attestation.attestation.token, over: attestation.requestHash, logger: logger)
            else {
                return .failed("Play Integrity token refused")
            }
            return .provedApp(app)
        }
        guard state.boundApp == nil else { return .failed("not a Play Integrity token") }
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
                try await confirm(&record, boundTo: key, in: repository, at: now)
                return nil
            }
            return try await refuse(session, proof, proved: proved != nil, in: repository, at: now)
        }
        if let app = session.boundApp {
            if case .provedApp(let proved) = proof, proved == app {
                try await repository.markProved(session.id, at: now)
                return nil
            }
            if case .unavailable(let why) = proof, withinOutageGrace(of: session, at: now) {
                try await repository.append(
                    audit.prepare(
                        .boundRefreshOutageGrace, Self.subject(of: session),
                        details: ["reason": why, "lastProvedAt": ISO8601.string(session.attestationProvedAt ?? now)]))
                return nil
            }
            return try await refuse(session, proof, proved: false, in: repository, at: now)
        }
        if let key = proved?.instance {
            try await confirm(&record, boundTo: key, in: repository, at: now)
            return nil
        }
        if case .provedApp(let app) = proof {
            try await repository.bind(session.id, toPlayIntegrityApp: app, at: now)
            record.session.attestationKeyId = SessionBinding.binding(ofPlayIntegrityApp: app)
            record.session.attestationProvedAt = now
            return nil
        }
        return binding.mode == .required ? .bindingRequired : nil
    }

    /// Whether a session bound to Play Integrity is still within `tokens.playIntegrityOutageGrace` of its last proved
    /// refresh.
    private func withinOutageGrace(of session: Session, at now: Date) -> Bool {
        guard binding.outageGrace > .zero, let proved = session.attestationProvedAt else { return false }
        return now < proved.addingTimeInterval(binding.outageGrace.timeInterval)
    }

    /// Revokes a bound session whose refresh did not prove its binding, with its audit event and an alert to every
    /// device, the session's own too (its app will find itself signed out).
    private func refuse(
        _ session: Session, _ proof: RefreshProof, proved: Bool, in repository: any SessionRepository, at now: Date
    ) async throws -> RotationOutcome {
        let reason =
            switch proof {
            case .failed(let why): why
            case .proved: proved ? "assertion by another key" : "counter replayed"
            case .provedApp: "Play Integrity token of another app"
            case .unavailable: "no attestation, and no outage grace left"
            case .absent: "no attestation"
            }
        let event = audit.prepare(
            .boundRefreshRefused, Self.subject(of: session), details: ["reason": reason], alertExcluding: [])
        _ = try await repository.revoke(
            session.id, of: session.accountId, reason: Self.bindingRefusedReason, at: now, audit: event)
        return .bindingRefused(session, reason: reason)
    }

    private static func subject(of session: Session) -> AuditTrail.Subject {
        AuditTrail.Subject(account: session.accountId, device: session.deviceId, session: session.id)
    }

    /// Binds the session to the key its refresh proved, for good.
    private func confirm(
        _ record: inout SessionRecord, boundTo key: AttestedInstanceKey, in repository: any SessionRepository,
        at now: Date
    ) async throws {
        try await repository.bind(record.session.id, to: key, at: now)
        record.session.attestationKeyId = key.id
        record.session.attestationKeyThumbprint = key.thumbprint
        record.session.attestationProvisional = false
        record.session.attestationProvedAt = now
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
