/// An identity provider whose tokens ``SocialTokenVerifier`` verifies.
public enum SocialProvider: String, Sendable, CaseIterable {
    /// Google Sign-In: an OpenID Connect ID token.
    case google
    /// Sign in with Apple: an identity token.
    case apple
    /// Facebook Login: a user access token, or an iOS Limited Login ID token.
    case facebook
    /// Firebase Authentication: an ID token of one Firebase project.
    case firebase
}
