import Foundation
import SocialTokens
import Testing

/// Google OAuth access tokens, as seed 003's field table describes `oauthToken` (what Socialite's `userFromToken`
/// takes): checked with Google's token info, the profile from its user info. One test per reason to refuse.
@Suite("Google OAuth access tokens")
struct GoogleAccessTokenTests {
    /// The shape of a Google access token, with a character that must be percent-encoded.
    private let token = "ya29.a0AfB_byC+x9Q"

    @Test("A valid access token signs in with the user info's profile")
    func valid() async throws {
        let fixture = await Fixture()
        await fixture.serveGoogle()
        let identity = try await fixture.verifier.verify(provider: .google, token: token, nonce: "ignored")
        #expect(
            identity
                == VerifiedIdentity(
                    provider: .google, subject: "110169484474386276334", email: "ada@gmail.com", emailVerified: true,
                    isPrivateRelayEmail: false, name: "Ada Lovelace", audience: Fixture.googleClientID))
        #expect(
            await fixture.provider.requests == [
                Fixture.googleTokenInfo + "?access_token=ya29.a0AfB_byC%2Bx9Q",
                Fixture.googleUserInfo + "?access_token=ya29.a0AfB_byC%2Bx9Q",
            ])
    }

    @Test("A token another client requested, but issued for this one (aud), or the reverse (azp), is accepted")
    func audienceOrAuthorizedParty() async throws {
        for info: [String: Any?] in [["azp": "other.apps.googleusercontent.com"], ["aud": "other"]] {
            let fixture = await Fixture()
            await fixture.serveGoogle(info: info)
            _ = try await fixture.verifier.verify(provider: .google, token: token, nonce: nil)
        }
    }

    @Test("A token of another app's client is refused, before the profile is read")
    func anotherClient() async {
        let fixture = await Fixture()
        await fixture.serveGoogle(info: ["aud": "evil.apps.googleusercontent.com", "azp": "evil"])
        await fixture.expect(.invalidToken("access token for another client"), provider: .google, token: token)
        #expect(await fixture.provider.requestCount(Fixture.googleUserInfo) == 0)
    }

    @Test("exp exactly the clock skew ago: expired")
    func expired() async {
        let fixture = await Fixture()
        await fixture.serveGoogle(info: ["exp": String(Int(fixture.time(-60)))])
        await fixture.expect(.invalidToken("access token expired"), provider: .google, token: token)
    }

    @Test("No exp, or no subject: not valid")
    func missingMembers() async {
        for info: [String: Any?] in [["exp": nil], ["exp": "soon"], ["sub": nil], ["sub": ""]] {
            let fixture = await Fixture()
            await fixture.serveGoogle(info: info)
            await fixture.expect(.invalidToken("access token not valid"), provider: .google, token: token)
        }
    }

    @Test("Token info refuses the token (400 invalid_token)")
    func rejected() async {
        let fixture = await Fixture()
        await fixture.provider.answer(
            Fixture.googleTokenInfo, json: ["error": "invalid_token", "error_description": "Invalid Value"],
            status: 400)
        await fixture.expect(.invalidToken("Google rejected the access token"), provider: .google, token: token)
    }

    @Test("The user info names another subject")
    func profileMismatch() async {
        let fixture = await Fixture()
        await fixture.serveGoogle(profile: ["sub": "someone-else", "email": "ada@gmail.com"])
        await fixture.expect(.invalidToken("profile does not match token"), provider: .google, token: token)
    }

    @Test("An unverified email is kept as unverified")
    func unverifiedEmail() async throws {
        let fixture = await Fixture()
        await fixture.serveGoogle(profile: [
            "sub": "110169484474386276334", "email": "ada@example.com", "email_verified": false,
        ])
        let identity = try await fixture.verifier.verify(provider: .google, token: token, nonce: nil)
        #expect(identity.email == "ada@example.com" && !identity.emailVerified)
    }

    @Test("Google down or answering garbage is the provider's problem, not the token's")
    func unavailable() async {
        let down = await Fixture()
        await down.provider.makeUnreachable(Fixture.googleTokenInfo)
        await down.expect(.providerUnavailable("Google token info unreachable"), provider: .google, token: token)
        let failing = await Fixture()
        await failing.provider.answer(Fixture.googleTokenInfo, json: [:], status: 503)
        await failing.expect(
            .providerUnavailable("Google token info answered HTTP 503"), provider: .google, token: token)
        let garbage = await Fixture()
        await garbage.provider.answer(
            Fixture.googleTokenInfo, with: SocialHTTPResponse(status: 200, headers: [], body: Array("[1]".utf8)))
        await garbage.expect(
            .providerUnavailable("Google token info answer malformed"), provider: .google, token: token)
    }

    @Test("A token that is empty, too long or not printable ASCII is refused without asking Google")
    func malformed() async {
        for bad in ["", String(repeating: "a", count: 4097), "ya29.with space", "ya29.\u{e9}"] {
            let fixture = await Fixture()
            await fixture.expect(.invalidToken("malformed access token"), provider: .google, token: bad)
            #expect(await fixture.provider.requests.isEmpty)
        }
    }

    @Test("A token of exactly the longest length is asked about; a subject of 255 bytes is taken, of 256 refused")
    func limitsAtTheirValue() async throws {
        let longest = await Fixture()
        await longest.serveGoogle()
        _ = try await longest.verifier.verify(provider: .google, token: String(repeating: "a", count: 4096), nonce: nil)
        let subject = String(repeating: "1", count: 255)
        let fits = await Fixture()
        await fits.serveGoogle(info: ["sub": subject], profile: ["sub": subject, "email": "ada@gmail.com"])
        #expect(try await fits.verifier.verify(provider: .google, token: token, nonce: nil).subject == subject)
        let tooLong = await Fixture()
        await tooLong.serveGoogle(info: ["sub": subject + "1"], profile: ["sub": subject + "1"])
        await tooLong.expect(.invalidToken("access token not valid"), provider: .google, token: token)
    }
}
