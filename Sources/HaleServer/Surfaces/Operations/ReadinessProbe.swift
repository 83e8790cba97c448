/// What `/readyz` needs of storage: a round trip that fails when the database cannot be reached.
protocol ReadinessProbe: Sendable {
    /// Returns when the database answered; throws when it did not.
    func ping() async throws
}
