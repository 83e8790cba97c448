/// Temporary: answers every provider with OAUTH_ERROR until the SocialTokens library is wired in.
struct UnavailableSocialIdentityVerifier: SocialIdentityVerifier {
    func verify(provider: String, token: String, nonce: String?) async throws -> VerifiedSocialIdentity {
        throw HaleError(.oauthError, status: 503, message: "Social sign-in is not available.")
    }
}

extension HaleServices {
    static func socialVerifier(_ settings: HaleConfiguration.SocialSignIn, clock: HaleClock)
        -> any SocialIdentityVerifier
    {
        UnavailableSocialIdentityVerifier()
    }
}
