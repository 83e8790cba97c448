import SQLKit

extension HaleDatabase: ReadinessProbe {
    /// `SELECT 1`, on a read connection.
    func ping() async throws {
        _ = try await sql.raw("SELECT 1").all()
    }
}
