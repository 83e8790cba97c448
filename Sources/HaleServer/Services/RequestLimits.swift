import Foundation

extension HaleError.Code {
    /// Too many requests from one client or for one device; `Retry-After` says when to try again.
    public static let rateLimited = Self(rawValue: "RATE_LIMITED")
}

/// The request budgets of the routes that invite guessing, applied before any work is done.
public struct RequestLimits: Sendable {
    let limiter: RateLimiter
    let settings: HaleConfiguration.RateLimits
    let clock: HaleClock

    /// Admits one device-key challenge or verify request from `ip` (when known) for `fingerprint` (when the request
    /// names one), or throws 429 `RATE_LIMITED` with the seconds to wait.
    public func admitDeviceKeyRequest(ip: String?, fingerprint: String? = nil) throws {
        let now = clock.now()
        if let ip, let wait = limiter.admit("device-keys/ip/\(ip)", rule: settings.deviceKeysPerIp, at: now) {
            throw Self.refusal(wait)
        }
        if let fingerprint,
            let wait = limiter.admit(
                "device-keys/fingerprint/\(OpaqueToken.hash(fingerprint))",
                rule: settings.deviceKeysPerFingerprint, at: now)
        {
            throw Self.refusal(wait)
        }
    }

    /// Admits one social sign-in request from `ip` (when known): each may cost calls to a provider.
    public func admitSocialSignIn(ip: String?) throws {
        if let ip,
            let wait = limiter.admit("social-sign-in/ip/\(ip)", rule: settings.socialSignInPerIp, at: clock.now())
        {
            throw Self.refusal(wait)
        }
    }

    private static func refusal(_ seconds: Int) -> HaleError {
        var error = HaleError(
            .rateLimited, status: 429, message: "Too many requests. Try again in \(seconds) seconds.")
        error.retryAfterSeconds = seconds
        return error
    }
}
