import Vapor

/// Counts each request against its client's device-key budget before the route does any work.
struct DeviceKeyRequestLimit: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try request.hale.requestLimits.admitDeviceKeyRequest(ip: request.clientIP)
        return try await next.respond(to: request)
    }
}
