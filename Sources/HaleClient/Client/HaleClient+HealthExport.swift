import Foundation

extension HaleClient {
    /// The account's health export, read: its daily totals and samples as the server's own records. Reads the whole
    /// document into memory; for an account with years of samples, `exportHealthData()` and a streaming reader
    /// suit better.
    public func healthExport() async throws -> HealthExport {
        try await send("GET", "api/v1/health/export", as: .session)
    }
}
