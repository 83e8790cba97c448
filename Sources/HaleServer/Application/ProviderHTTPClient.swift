import AsyncHTTPClient
import Vapor

/// The HTTP client Hale uses to reach identity providers: redirects refused (a key set or Graph answer must come
/// from the configured host), and shut down with the application.
enum ProviderHTTPClient {
    static func make(for app: Application) -> HTTPClient {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        // Hale traces these calls itself, naming the host alone: the client's own spans carry the full URL, and
        // providers' URLs hold access tokens.
        configuration.tracing.tracer = nil
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        let client = HTTPClient(eventLoopGroup: app.eventLoopGroup, configuration: configuration)
        app.lifecycle.use(HTTPClientShutdown(client: client))
        return client
    }
}

/// Shuts an HTTP client down with the application that made it.
struct HTTPClientShutdown: LifecycleHandler {
    let client: HTTPClient

    func shutdownAsync(_ application: Application) async {
        try? await client.shutdown()
    }
}
