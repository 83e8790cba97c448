import AsyncHTTPClient
import NIOSSL
import Vapor

/// The HTTP clients push delivery uses, one per configured gateway, the confirmation webhook's and the event
/// endpoints': no redirects,
/// HTTP/2 where the server offers it (APNs requires it), and shut down with the application.
struct PushHTTPClients: Sendable {
    var apns: HTTPClient?
    var fcm: HTTPClient?
    /// For the confirmation webhook, when one is configured.
    var webhook: HTTPClient?
    /// For the app backend's event endpoints, which are added while Hale runs.
    var events: HTTPClient?

    /// No clients: push is off.
    static let none = PushHTTPClients()

    static func make(for app: Application, _ configuration: HaleConfiguration) throws -> PushHTTPClients {
        let settings = configuration.push
        var clients = PushHTTPClients()
        if let apns = settings.apns {
            var tls = TLSConfiguration.makeClientConfiguration()
            if let root = apns.rootCertificatePEM {
                guard let certificates = try? NIOSSLCertificate.fromPEMBytes(Array(root.utf8)), !certificates.isEmpty
                else {
                    throw ConfigError("push.apns.rootCertificate must be a PEM certificate")
                }
                tls.trustRoots = .certificates(certificates)
            }
            clients.apns = client(for: app, tls: tls)
        }
        if settings.fcm != nil {
            clients.fcm = client(for: app, tls: .makeClientConfiguration())
        }
        if configuration.confirmationWebhook != nil {
            clients.webhook = client(for: app, tls: .makeClientConfiguration())
        }
        clients.events = client(for: app, tls: .makeClientConfiguration())
        return clients
    }

    private static func client(for app: Application, tls: TLSConfiguration) -> HTTPClient {
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        // Hale traces these calls itself, naming the host alone: the client's own spans carry the full URL, and
        // providers' URLs hold access tokens.
        configuration.tracing.tracer = nil
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(15))
        configuration.httpVersion = .automatic
        let client = HTTPClient(eventLoopGroup: app.eventLoopGroup, configuration: configuration)
        app.lifecycle.use(HTTPClientShutdown(client: client))
        return client
    }
}
