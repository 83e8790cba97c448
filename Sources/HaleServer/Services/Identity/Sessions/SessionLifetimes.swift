/// How long sessions last and how refresh tokens may be retried.
public struct SessionLifetimes: Sendable {
    /// Refresh lifetime without `rememberMe`.
    public var standard: Duration
    /// Refresh lifetime with `rememberMe`.
    public var rememberMe: Duration
    /// How long after a refresh the just-spent token may be retried without revoking the session.
    public var reuseGracePeriod: Duration

    /// The refresh lifetime for a session that did or did not choose `rememberMe`.
    func refreshLifetime(rememberMe chosen: Bool) -> Duration {
        chosen ? rememberMe : standard
    }
}
