import HealthSamples

extension AppleHealthImport {
    /// What an import did: the type the SDK decodes too.
    public typealias Summary = HealthImportSummary
}
