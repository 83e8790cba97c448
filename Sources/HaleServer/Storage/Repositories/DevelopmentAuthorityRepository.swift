/// Stores the installation's development App Attest CA.
protocol DevelopmentAuthorityRepository: Sendable {
    /// Stores `record` unless an authority is stored already, in which case it does nothing.
    func insertIfAbsent(_ record: DevelopmentAuthorityRecord) async throws
    /// The stored authority, if any.
    func authority() async throws -> DevelopmentAuthorityRecord?
}
