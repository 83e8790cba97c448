import Foundation

extension HaleError.Code {
    /// Too many requests from one client or for one device; `Retry-After` says when to try again.
    public static let rateLimited = Self(rawValue: "RATE_LIMITED")
}

/// Hale's request budgets (`RateLimitBudget`), each counted in its own `RateLimiter` before a route does any work.
///
/// The counters live in each instance's memory: behind a load balancer each instance allows the full budget. What
/// must hold across instances, the device-key lockout, lives in the database.
public struct RequestLimits: Sendable {
    private let limiters: [RateLimitBudget: RateLimiter]
    let clock: HaleClock

    /// A limiter per budget, with the configured rules.
    init(settings: HaleConfiguration.RateLimits, clock: HaleClock) {
        limiters = Dictionary(uniqueKeysWithValues: RateLimitBudget.allCases.map { ($0, RateLimiter(settings[$0])) })
        self.clock = clock
    }

    /// Counts a request from `client` against a per-network budget, or throws 429 `RATE_LIMITED`. A request that
    /// came through no socket (in-process tests) has no network and is not counted.
    public func admit(_ budget: RateLimitBudget, from client: ClientNetwork?) throws {
        guard let client else { return }
        try admit(budget, key: client)
    }

    /// Counts a request of `account` against a per-account budget, or throws 429 `RATE_LIMITED`.
    public func admit(_ budget: RateLimitBudget, account: AccountID) throws {
        try admit(budget, key: account)
    }

    /// Counts a device-key sign-in challenge for `fingerprint` from `client`, or throws 429 `RATE_LIMITED`. The
    /// budget is per fingerprint and network together: anyone may know a fingerprint, and a budget of the
    /// fingerprint alone would let them spend it and lock the device's owner out.
    public func admitDeviceSignIn(fingerprint: String, from client: ClientNetwork?) throws {
        try admit(.deviceKeysPerFingerprint, key: DeviceSignInKey(fingerprint: fingerprint, client: client))
    }

    private struct DeviceSignInKey: Hashable {
        let fingerprint: String
        let client: ClientNetwork?
    }

    private func admit(_ budget: RateLimitBudget, key: some Hashable) throws {
        if let wait = limiter(budget).admit(key, at: clock.now()) {
            throw Self.refusal(wait)
        }
    }

    private func limiter(_ budget: RateLimitBudget) -> RateLimiter {
        guard let limiter = limiters[budget] else { preconditionFailure("init makes a limiter for every budget") }
        return limiter
    }

    private static func refusal(_ seconds: Int) -> HaleError {
        let wait = seconds == 1 ? "1 second" : "\(seconds) seconds"
        var error = HaleError(.rateLimited, .rateLimited, message: "Too many requests. Try again in \(wait).")
        error.retryAfterSeconds = seconds
        return error
    }
}
