import Vapor

extension Application {
    /// Boots the application and starts its server on 127.0.0.1:`port`; if that fails, shuts it down and rethrows.
    func startOrShutDown(port: Int) async throws {
        do {
            try await asyncBoot()
            try await server.start(address: .hostname("127.0.0.1", port: port))
        } catch {
            try? await asyncShutdown()
            throw error
        }
    }
}
