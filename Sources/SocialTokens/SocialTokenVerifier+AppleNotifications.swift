import Foundation

extension SocialTokenVerifier {
    /// Verifies the `payload` member Apple POSTs to the notification endpoint (`{"payload": "<JWS>"}`) and returns
    /// the event it carries.
    ///
    /// The JWS must be RS256 with a `kid` from Apple's key set (the same cached set and rules as identity tokens; `none`,
    /// HS256 and ES256 are refused), `iss` `https://appleid.apple.com`, `aud` a single one of `appleAudiences`,
    /// `exp` not passed, `iat` present, not in the future and not older than `appleNotificationMaximumAge` (each
    /// with `clockSkew`), and `nbf`, if present, passed. `events` is a JSON string holding an object (an object is
    /// accepted too) with a documented `type` (else `invalidToken("apple_event_unknown")`), a `sub`, and an
    /// `event_time` in seconds or milliseconds. Throws `notConfigured(.apple)` without Apple audiences.
    public func verifyAppleNotification(_ payload: String) async throws(SocialTokenError) -> AppleAccountEvent {
        guard !configuration.appleAudiences.isEmpty else { throw .notConfigured(.apple) }
        let jws = try CompactJWS(payload)
        // Apple signs with RS256 only; anything else is refused before a key is fetched.
        guard jws.header.algorithm == .rs256 else { throw .unsupportedAlgorithm }
        let policy = IDTokenPolicy.appleNotification(configuration)
        let key = try await verificationKey(jws.header.keyID, url: policy.keySetURL)
        guard key.algorithm == .rs256 else { throw .algorithmKeyMismatch }
        try key.verify(jws.signature, for: jws.signingInput)
        let audiences = try policy.checkIssuerAudienceAndTimes(jws.claims, now: now())
        // Apple names one app; a notification for several cannot be attributed to one.
        guard audiences.count == 1, let audience = audiences.first else { throw .wrongAudience }
        try checkFreshness(jws.claims)
        let id: String?
        switch jws.claims.value("jti") {
        case nil: id = nil
        case .string(let jti)? where !jti.isEmpty: id = jti
        default: throw .invalidClaims
        }
        return try AppleAccountEvent(events: jws.claims.value("events"), audience: audience, id: id)
    }

    /// Refuses a notification issued longer ago than the configured maximum age (plus the clock skew).
    private func checkFreshness(_ claims: JWTClaims) throws(SocialTokenError) {
        guard let issuedAt = claims.date("iat") else { throw .missingIssuedAt }
        let oldest = now().addingTimeInterval(
            -configuration.appleNotificationMaximumAge.timeInterval - configuration.clockSkew.timeInterval)
        guard issuedAt >= oldest else { throw .appleNotificationStale }
    }
}
