import AsyncHTTPClient

/// Runs `body` with an HTTP client for a benchmark's requests, and shuts the client down whatever happens.
func withBenchmarkClient<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}
