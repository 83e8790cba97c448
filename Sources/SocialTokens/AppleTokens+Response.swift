extension AppleTokens {
    /// The largest answer from Apple's token or revoke endpoint that is read.
    static let maximumResponseSize = 64 * 1024
    /// The issuer of Apple's tokens.
    static let issuer = "https://appleid.apple.com"

    /// Reads Apple's `TokenResponse` to an authorization-code grant: `refresh_token`, and the `sub` of `id_token`,
    /// whose `iss` must be Apple and whose only audience must be `clientID`. Anything else is
    /// `providerUnavailable`: Apple answered 200 with something this library cannot use.
    init(tokenResponse body: [UInt8], clientID: String) throws(SocialTokenError) {
        guard body.count <= Self.maximumResponseSize, let members = JSONObject.decode(body),
            let refreshToken = members["refresh_token"]?.string, AppleTokenClient.isGrant(refreshToken),
            let idToken = members["id_token"]?.string, let jws = try? CompactJWS(idToken),
            jws.claims.string("iss") == Self.issuer, jws.claims.audiences == [clientID],
            let subject = jws.claims.string("sub"), !subject.isEmpty
        else { throw .appleResponseMalformed }
        self.init(refreshToken: refreshToken, subject: subject)
    }
}
