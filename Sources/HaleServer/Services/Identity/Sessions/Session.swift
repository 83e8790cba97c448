import Foundation

/// A signed-in session: one refresh-token family, on one device, by one sign-in method.
public struct Session: Codable, Sendable, Equatable {
    /// The session's identifier, carried in access tokens as `sid`.
    public var id: SessionID
    /// The account signed in.
    public var accountId: AccountID
    /// The device signed in on, when known.
    public var deviceId: DeviceID?
    /// How the account signed in, such as `passkey`, `device_key` or `oauth_google`.
    public var signInMethod: String
    /// Whether the longer refresh lifetime was chosen.
    public var rememberMe: Bool
    /// When the session began.
    public var createdAt: Date
    /// When its refresh token was last used.
    public var lastUsedAt: Date
    /// When the session ends unless revoked earlier.
    public var expiresAt: Date
    /// When the session was revoked, if it was.
    public var revokedAt: Date?
    /// Why the session was revoked: `logout`, `logout_all`, `refresh_token_reuse` or `binding_refused`.
    public var revokeReason: String?
    /// When the person last proved themselves on the session with a step-up ceremony, if ever.
    public var steppedUpAt: Date? = nil
    /// The App Attest key the session is bound to (`tokens.bindToAttestation`), if any: its id.
    public var attestationKeyId: String? = nil
    /// The bound key's JWK thumbprint, which the session's access tokens carry as `cnf.jkt`.
    public var attestationKeyThumbprint: String? = nil
    /// Whether the binding was made at the session's start, to the newest key of its device, and no refresh has
    /// confirmed it yet: the first proved refresh may prove any key of that device, and binds to the one it proves.
    public var attestationProvisional: Bool = false
    /// When a refresh last proved the binding.
    public var attestationProvedAt: Date? = nil

    /// The App Attest key the session is bound to, if any.
    public var boundKey: AttestedInstanceKey? {
        guard let attestationKeyId, let attestationKeyThumbprint else { return nil }
        return AttestedInstanceKey(id: attestationKeyId, thumbprint: attestationKeyThumbprint)
    }

    /// The Android app the session is bound to by Play Integrity, if any: its package name.
    public var boundApp: String? {
        SessionBinding.playIntegrityApp(ofBinding: attestationKeyId)
    }

    /// When the person last proved themselves on this session: the sign-in that began it, or a later step-up.
    public var provedAt: Date { max(createdAt, steppedUpAt ?? createdAt) }

    /// Whether the session can still be used at `now`.
    public func isActive(at now: Date) -> Bool {
        revokedAt == nil && expiresAt > now
    }
}
