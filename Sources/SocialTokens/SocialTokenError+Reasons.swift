/// The reasons this library gives, in one place so that they stay stable.
extension SocialTokenError {
    // The token's structure (RFC 7515 §7.1, RFC 7519 §7.2).
    static let tokenTooLong = SocialTokenError.invalidToken("token too long")
    static let notCompactJWS = SocialTokenError.invalidToken("not a compact JWS")
    static let invalidBase64URL = SocialTokenError.invalidToken("invalid base64url")
    static let invalidHeader = SocialTokenError.invalidToken("invalid header")
    static let invalidClaims = SocialTokenError.invalidToken("invalid claims")
    static let criticalHeader = SocialTokenError.invalidToken("unsupported critical header")
    static let malformedAccessToken = SocialTokenError.invalidToken("malformed access token")

    // The signature.
    static let unsupportedAlgorithm = SocialTokenError.invalidToken("unsupported algorithm")
    static let missingKeyID = SocialTokenError.invalidToken("missing key id")
    static let unknownKeyID = SocialTokenError.invalidToken("unknown key id")
    static let algorithmKeyMismatch = SocialTokenError.invalidToken("algorithm does not match key")
    static let signatureLength = SocialTokenError.invalidToken("signature length does not fit the key")
    static let badSignature = SocialTokenError.invalidToken("bad signature")

    // The claims.
    static let wrongIssuer = SocialTokenError.invalidToken("wrong issuer")
    static let wrongAudience = SocialTokenError.invalidToken("wrong audience")
    static let missingExpiry = SocialTokenError.invalidToken("missing expiry")
    static let expired = SocialTokenError.invalidToken("expired")
    static let missingIssuedAt = SocialTokenError.invalidToken("missing issued-at")
    static let issuedInFuture = SocialTokenError.invalidToken("issued in the future")
    static let notYetValid = SocialTokenError.invalidToken("not yet valid")
    static let missingSubject = SocialTokenError.invalidToken("missing subject")
    static let nonceMismatch = SocialTokenError.invalidToken("nonce mismatch")

    // Firebase ID tokens, beyond the claims above.
    static let firebaseCustomToken = SocialTokenError.invalidToken("a custom token, not an ID token")
    static let subjectTooLong = SocialTokenError.invalidToken("subject too long")
    static let missingAuthTime = SocialTokenError.invalidToken("missing auth time")
    static let authenticatedInFuture = SocialTokenError.invalidToken("authenticated in the future")

    // Facebook's Graph API.
    static let graphRejected = SocialTokenError.invalidToken("Graph API rejected the token")
    static let tokenNotValid = SocialTokenError.invalidToken("access token not valid")
    static let tokenForAnotherApp = SocialTokenError.invalidToken("access token for another app")
    static let tokenExpired = SocialTokenError.invalidToken("access token expired")
    static let profileMismatch = SocialTokenError.invalidToken("profile does not match token")
    static let graphUnreachable = SocialTokenError.providerUnavailable("Graph API unreachable")
    static let graphMalformed = SocialTokenError.providerUnavailable("Graph API answer malformed")

    /// The Graph API answered with a server error.
    static func graphStatus(_ status: Int) -> SocialTokenError {
        .providerUnavailable("Graph API answered HTTP \(status)")
    }

    // Google's token info and user info, for access tokens.
    static let googleRejected = SocialTokenError.invalidToken("Google rejected the access token")
    static let googleTokenForAnotherClient = SocialTokenError.invalidToken("access token for another client")
    static let googleUnreachable = SocialTokenError.providerUnavailable("Google token info unreachable")
    static let googleMalformed = SocialTokenError.providerUnavailable("Google token info answer malformed")

    /// Google's token info or user info answered with a server error.
    static func googleStatus(_ status: Int) -> SocialTokenError {
        .providerUnavailable("Google token info answered HTTP \(status)")
    }

    // Key sets.
    static let keySetUnreachable = SocialTokenError.providerUnavailable("key set unreachable")
    static let keySetMalformed = SocialTokenError.providerUnavailable("key set malformed")
    static let keySetEmpty = SocialTokenError.providerUnavailable("key set has no usable keys")

    /// The key set URL answered something other than 2xx.
    static func keySetStatus(_ status: Int) -> SocialTokenError {
        .providerUnavailable("key set answered HTTP \(status)")
    }
}
