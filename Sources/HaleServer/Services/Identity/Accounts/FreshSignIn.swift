import Foundation

/// The rule for operations that need the person, not just a credential: a sign-in with a passkey, a device key or
/// a social identity within `window`. Deleting the account is one.
///
/// What counts is when the sign-in behind the presented credential happened (`AuthenticatedAccount.signedInAt`):
/// for an access token, its session's start, which a refresh does not move; for a personal access token, its
/// creation by a social sign-in. A handed-off access token and a token an operator or a tool made never count.
/// A refusal is RFC 9470's step-up challenge, which clients must not answer by refreshing.
public struct FreshSignIn: Sendable {
    /// How recent the sign-in must be.
    public let window: Duration
    let clock: HaleClock

    /// Throws `FRESH_SIGN_IN_REQUIRED` unless the identity's sign-in happened within the window.
    public func require(_ identity: AuthenticatedAccount) throws {
        guard let signedInAt = identity.signedInAt,
            clock.now().timeIntervalSince(signedInAt) <= window.timeInterval
        else {
            throw refusal
        }
    }

    /// RFC 9470 §3: `insufficient_user_authentication` with the `max_age` a new sign-in must meet.
    var refusal: HaleError {
        let seconds = Int(window.timeInterval)
        var error = HaleError(
            .freshSignInRequired, .unauthenticated,
            message: "This needs a sign-in from the last \(Self.describe(seconds)). Sign in again, then retry.")
        error.bearerChallenge =
            #"Bearer realm="hale", error="insufficient_user_authentication", "#
            + #"error_description="A more recent sign-in is required", max_age="\#(seconds)""#
        return error
    }

    /// `300` as `5 minutes`, `90` as `90 seconds`.
    private static func describe(_ seconds: Int) -> String {
        if seconds % 3600 == 0 { return seconds == 3600 ? "hour" : "\(seconds / 3600) hours" }
        if seconds % 60 == 0 { return seconds == 60 ? "minute" : "\(seconds / 60) minutes" }
        return seconds == 1 ? "second" : "\(seconds) seconds"
    }
}
