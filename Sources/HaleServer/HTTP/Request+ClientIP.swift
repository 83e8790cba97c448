import Vapor

extension Request {
    /// The address of the peer that connected. A forwarded-for header is the client's to forge, so it is not read;
    /// behind a proxy every client shares the proxy's address.
    var clientIP: String? {
        remoteAddress?.ipAddress
    }
}
