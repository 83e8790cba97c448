import Foundation

extension HaleError.Code {
    /// Too many requests from one client or for one device; `Retry-After` says when to try again.
    public static let rateLimited = Self(rawValue: "RATE_LIMITED")
}

/// The request budgets of the routes that invite guessing, applied before any work is done, each counted in its own
/// `RateLimiter`.
public struct RequestLimits: Sendable {
    let deviceKeysPerIp: RateLimiter
    let deviceKeysPerFingerprint: RateLimiter
    let socialSignInPerIp: RateLimiter
    let clock: HaleClock

    /// A limiter per budget, with the configured rules.
    init(settings: HaleConfiguration.RateLimits, clock: HaleClock) {
        deviceKeysPerIp = RateLimiter(settings.deviceKeysPerIp)
        deviceKeysPerFingerprint = RateLimiter(settings.deviceKeysPerFingerprint)
        socialSignInPerIp = RateLimiter(settings.socialSignInPerIp)
        self.clock = clock
    }

    /// Admits one device-key challenge or verify request from `ip` (when known) for `fingerprint` (when the request
    /// names one), or throws 429 `RATE_LIMITED` with the seconds to wait.
    public func admitDeviceKeyRequest(ip: String?, fingerprint: String? = nil) throws {
        let now = clock.now()
        if let ip, let wait = deviceKeysPerIp.admit(ip, at: now) {
            throw Self.refusal(wait)
        }
        if let fingerprint, let wait = deviceKeysPerFingerprint.admit(fingerprint, at: now) {
            throw Self.refusal(wait)
        }
    }

    /// Admits one social sign-in request from `ip` (when known): each may cost calls to a provider.
    public func admitSocialSignIn(ip: String?) throws {
        if let ip, let wait = socialSignInPerIp.admit(ip, at: clock.now()) {
            throw Self.refusal(wait)
        }
    }

    private static func refusal(_ seconds: Int) -> HaleError {
        let wait = seconds == 1 ? "1 second" : "\(seconds) seconds"
        var error = HaleError(.rateLimited, status: 429, message: "Too many requests. Try again in \(wait).")
        error.retryAfterSeconds = seconds
        return error
    }
}
