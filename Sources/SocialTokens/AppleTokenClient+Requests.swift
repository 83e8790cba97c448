extension AppleTokenClient {
    /// POST tokenURL, form: client_id, client_secret, code, grant_type=authorization_code. Reads refresh_token and
    /// id_token.
    ///
    /// The id_token came over TLS straight from Apple in this response, so its payload is decoded for `sub` without
    /// a signature check (OpenID Connect Core §3.1.3.7 step 6 allows this for a token from the token endpoint); its
    /// `iss` must still be Apple and its `aud` `clientID`. Apple's 400 `invalid_grant` is `invalidToken`;
    /// `invalid_client`, `unauthorized_client` and Apple's other documented codes are `providerUnavailable` (this
    /// server's configuration, not the person); 5xx, 429, any other status, a transport failure or an unreadable
    /// answer are `providerUnavailable`. A code that is empty, longer than 4096 bytes or not visible ASCII is
    /// `invalidToken` without calling Apple.
    public func exchange(authorizationCode: String, clientID: String) async throws(SocialTokenError) -> AppleTokens {
        try await exchange(authorizationCode: authorizationCode, clientID: clientID, redirectURI: nil)
    }

    /// The exchange as ``exchange(authorizationCode:clientID:)`` describes, with `redirect_uri` added to the form
    /// when given: Apple requires it for a code from the web flow, where it must equal the authorization request's.
    public func exchange(authorizationCode: String, clientID: String, redirectURI: String?)
        async throws(SocialTokenError) -> AppleTokens
    {
        guard Self.isGrant(authorizationCode) else { throw .appleCodeMalformed }
        var fields = [
            ("client_id", clientID), ("client_secret", try clientSecret(clientID: clientID)),
            ("code", authorizationCode), ("grant_type", "authorization_code"),
        ]
        if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
        let response = try await post(tokenURL, fields)
        guard response.status == 200 else { throw Self.failure(response) }
        return try AppleTokens(tokenResponse: response.body, clientID: clientID)
    }

    /// POST revokeURL, form: client_id, client_secret, token, token_type_hint=refresh_token. 200 → done.
    ///
    /// Apple answers 200 for a token that is already invalid (RFC 7009 §2.2), so a repeated revocation succeeds.
    /// 400 `invalid_client` and Apple's other documented codes, 5xx, 429, any other status and transport failures
    /// are `providerUnavailable`: the caller retries. A 400 `invalid_grant` is `invalidToken`: Apple does not take
    /// this token from this client, and retrying will not change that. A token that is empty, longer than 4096
    /// bytes or not visible ASCII is `invalidToken` without calling Apple.
    public func revoke(refreshToken: String, clientID: String) async throws(SocialTokenError) {
        guard Self.isGrant(refreshToken) else { throw .appleTokenMalformed }
        let fields = [
            ("client_id", clientID), ("client_secret", try clientSecret(clientID: clientID)),
            ("token", refreshToken), ("token_type_hint", "refresh_token"),
        ]
        let response = try await post(revokeURL, fields)
        guard response.status == 200 else { throw Self.failure(response) }
    }

    /// Whether `text` can be an authorization code or refresh token.
    static func isGrant(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumGrantLength && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// `POST url` with `fields` through the injected client; a transport failure is Apple's problem.
    private func post(_ url: String, _ fields: [(String, String)]) async throws(SocialTokenError)
        -> SocialHTTPResponse
    {
        do {
            return try await http.postForm(url, fields: fields)
        } catch {
            throw .appleUnreachable
        }
    }

    /// The error an answer other than 200 means: a documented `ErrorResponse` code in a 4xx body, or the status.
    static func failure(_ response: SocialHTTPResponse) -> SocialTokenError {
        guard (400..<500).contains(response.status), response.status != 429,
            response.body.count <= AppleTokens.maximumResponseSize,
            let code = JSONObject.decode(response.body)?["error"]?.string
        else { return .appleStatus(response.status) }
        if code == "invalid_grant" { return .appleInvalidGrant }
        if SocialTokenError.appleConfigurationErrorCodes.contains(code) { return .appleRejected(code) }
        return .appleStatus(response.status)
    }
}
