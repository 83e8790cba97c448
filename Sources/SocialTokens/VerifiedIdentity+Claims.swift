extension VerifiedIdentity {
    /// The Apple private relay domain: an address there forwards to the person's real one.
    static let privateRelaySuffix = "@privaterelay.appleid.com"

    /// A Google ID token's identity; the email counts as verified only when `email_verified` is true.
    init(google claims: JWTClaims, subject: String) {
        let email = claims.string("email")
        self.init(
            provider: .google, subject: subject, email: email, emailVerified: claims.flag("email_verified") == true,
            isPrivateRelayEmail: Self.isPrivateRelay(email), name: claims.string("name"),
            audience: claims.audiences?.first)
    }

    /// An Apple identity token's identity. The email may be missing after the first sign-in; `email_verified` and
    /// `is_private_email` may be booleans or the strings "true" and "false". The token carries no name.
    init(apple claims: JWTClaims, subject: String) {
        let email = claims.string("email")
        self.init(
            provider: .apple, subject: subject, email: email, emailVerified: claims.flag("email_verified") == true,
            isPrivateRelayEmail: claims.flag("is_private_email") == true || Self.isPrivateRelay(email), name: nil,
            audience: claims.audiences?.first)
    }

    /// A Facebook Limited Login token's identity. Facebook documents no verification of the email claim, so it is
    /// never reported as verified.
    init(facebookLimitedLogin claims: JWTClaims, subject: String) {
        let email = claims.string("email")
        self.init(
            provider: .facebook, subject: subject, email: email, emailVerified: false,
            isPrivateRelayEmail: Self.isPrivateRelay(email), name: claims.string("name"),
            audience: claims.audiences?.first)
    }

    /// A Firebase ID token's identity: `sub` is the uid. The email counts as verified only when `email_verified`
    /// is true.
    init(firebase claims: JWTClaims, subject: String) {
        let email = claims.string("email")
        self.init(
            provider: .firebase, subject: subject, email: email, emailVerified: claims.flag("email_verified") == true,
            isPrivateRelayEmail: Self.isPrivateRelay(email), name: claims.string("name"),
            audience: claims.audiences?.first)
        authenticatedAt = claims.date("auth_time")
        expiresAt = claims.date("exp")
    }

    /// Whether `email` is an Apple private relay address.
    static func isPrivateRelay(_ email: String?) -> Bool {
        email?.lowercased().hasSuffix(privateRelaySuffix) ?? false
    }
}
