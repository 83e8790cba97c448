import Foundation
import StrictJSON

extension SocialTokenVerifier {
    /// Verifies a Google OAuth access token, what Laravel Socialite's `userFromToken` takes: Google's token info says
    /// whom it was issued to and until when, and its user info gives the profile. The token must have been issued
    /// to one of the configured client ids (its `aud`, or the `azp` that requested it), be unexpired, and the user
    /// info must name the same subject.
    func verifyGoogleAccessToken(_ token: String) async throws(SocialTokenError) -> VerifiedIdentity {
        guard !token.isEmpty, token.utf8.count <= Self.maximumAccessTokenLength,
            token.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { throw .malformedAccessToken }
        let info = try await ask(URLQuery.url(configuration.googleTokenInfoURL, [("access_token", token)]), of: .google)
        let clientIDs = Set(configuration.googleClientIDs)
        guard let audience = [info["aud"], info["azp"]].compactMap({ $0?.string }).first(where: clientIDs.contains)
        else { throw .googleTokenForAnotherClient }
        guard let expiry = info["exp"].flatMap(Self.seconds) else { throw .tokenNotValid }
        let deadline = Date(timeIntervalSince1970: expiry).addingTimeInterval(configuration.clockSkew.timeInterval)
        guard now() < deadline else { throw .tokenExpired }
        guard let subject = info["sub"]?.identifier, !subject.isEmpty, subject.utf8.count <= 255 else {
            throw .tokenNotValid
        }
        let profile = try await ask(
            URLQuery.url(configuration.googleUserInfoURL, [("access_token", token)]), of: .google)
        guard profile["sub"]?.identifier == subject else { throw .profileMismatch }
        let email = profile["email"]?.string
        return VerifiedIdentity(
            provider: .google, subject: subject, email: email, emailVerified: profile["email_verified"]?.flag == true,
            isPrivateRelayEmail: VerifiedIdentity.isPrivateRelay(email), name: profile["name"]?.string,
            audience: audience)
    }

    /// Seconds since 1970 that Google's token info sends as a string of digits (or, possibly, a number).
    private static func seconds(_ value: JSONValue) -> Double? {
        switch value {
        case .string(let text): text.utf8.count <= 12 ? Double(text) : nil
        case .integer(let whole): Double(whole)
        default: nil
        }
    }
}
