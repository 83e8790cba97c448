import Crypto
import Foundation

extension IDTokenPolicy {
    /// Checks the claims of a token whose signature has verified (OpenID Connect Core §3.1.3.7 steps 2, 3, 9, 10,
    /// and 11 for the nonce), and returns its subject.
    func check(_ claims: JWTClaims, nonce: String?, now: Date) throws(SocialTokenError) -> String {
        _ = try checkIssuerAudienceAndTimes(claims, now: now)
        // Step 11: the nonce the client sent is the one in the token.
        if let nonce, !matches(nonce: nonce, claim: claims.string("nonce")) { throw .nonceMismatch }
        guard let subject = claims.string("sub"), !subject.isEmpty else { throw .missingSubject }
        return subject
    }

    /// Steps 2, 3, 9 and 10: the issuer, the audiences and the times. Returns the audiences.
    func checkIssuerAudienceAndTimes(_ claims: JWTClaims, now: Date) throws(SocialTokenError) -> [String] {
        // Step 2: the issuer matches exactly.
        guard let issuer = claims.string("iss"), issuers.contains(issuer) else { throw .wrongIssuer }
        // Step 3: every audience is one this server accepts.
        guard let tokenAudiences = claims.audiences, tokenAudiences.allSatisfy(audiences.contains) else {
            throw .wrongAudience
        }
        try checkTimes(claims, now: now)
        return tokenAudiences
    }

    /// Step 9 (`exp`), step 10 (`iat`) and RFC 7519 §4.1.5 (`nbf`), each with the clock skew.
    private func checkTimes(_ claims: JWTClaims, now: Date) throws(SocialTokenError) {
        guard let expiry = claims.date("exp") else { throw .missingExpiry }
        guard now < expiry.addingTimeInterval(clockSkew) else { throw .expired }
        if let issuedAt = claims.date("iat") {
            guard issuedAt <= now.addingTimeInterval(clockSkew) else { throw .issuedInFuture }
        } else if requiresIssuedAt || claims.contains("iat") {
            throw .missingIssuedAt
        }
        if let notBefore = claims.date("nbf") {
            guard notBefore <= now.addingTimeInterval(clockSkew) else { throw .notYetValid }
        } else if claims.contains("nbf") {
            throw .notYetValid
        }
    }

    /// Whether the token's nonce claim matches the nonce the client sent; a missing claim never matches.
    private func matches(nonce: String, claim: String?) -> Bool {
        guard let claim else { return false }
        switch nonceComparison {
        case .raw:
            return claim == nonce
        case .rawOrSHA256Hex:
            let digest = SHA256.hash(data: Array(nonce.utf8))
            let hex = digest.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
            return claim == nonce || claim == hex
        }
    }
}

extension String {
    /// The string with leading zeros up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
