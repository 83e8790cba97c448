import Vapor

/// The largest request body a route accepts, set where the route is registered and named in its 413.
///
/// A route without one takes `server.maxBodySize` (64 KiB by default). Routes whose valid bodies are small take less,
/// so a client cannot make the server hold 64 KiB to read a refresh token; the bulk routes take more.
struct BodyLimit: Sendable {
    /// The most bytes accepted: a body of exactly this size is read, one byte more is a 413.
    let bytes: Int

    /// A token, a name, an id or two, a decision and its signature: the largest valid body is under 2 KB as JSON
    /// encoders write it (an RSA-8192 signature is 1,368 characters; a name of 100 emoji escaped as `\u` pairs 1,200).
    static let small = BodyLimit(bytes: 4 << 10)
    /// A device registration's PEM key (at most 8,192 bytes), and a passkey's options with a name, device and email.
    static let form = BodyLimit(bytes: 16 << 10)
    /// A passkey ceremony's answer: attestation objects with certificate chains run to a few kilobytes.
    static let passkeyCeremony = BodyLimit(bytes: 64 << 10)
    /// Seed 001's attested submission and App Attest attestation, and seed 003's sign-in document, whose provider
    /// token may be 16 KiB.
    static let document = BodyLimit(bytes: 64 << 10)
    /// Apple's server-to-server notification: one signed JWT.
    static let appleNotification = BodyLimit(bytes: 32 << 10)
    /// Sample sync: up to 10,000 samples (`HealthSync.maximumBatch`), about 1.6 KB each at their largest.
    static let sync = BodyLimit(bytes: 16 << 20)

    /// Where a route keeps its limit, for its 413.
    static let userInfoKey = "hale.bodyLimit"

    /// Vapor refuses a body once it holds `maxSize` bytes, so one more than `bytes`.
    var strategy: HTTPBodyStreamStrategy { .collect(maxSize: ByteCount(value: bytes + 1)) }

    /// The most bytes of body `request`'s route accepts: its own limit, else `server.maxBodySize`.
    static func bytes(for request: Request) -> Int {
        request.route?.userInfo[userInfoKey] as? Int ?? request.application.routes.defaultMaxBodySize.value - 1
    }

    /// The 413 for `request`, naming its route's limit.
    static func tooLarge(for request: Request) -> HaleError {
        HaleError(
            .payloadTooLarge, .tooLarge,
            message: "The request body must be at most \(bytes(for: request)) bytes on this route.")
    }
}

/// Holds every request to its route's `BodyLimit` where Vapor does not: a body that arrives in one piece is handed to
/// the route already collected, and a route's `.collect(maxSize:)` then never counts it. A declared
/// `Content-Length` over the limit is refused before any of the body is read.
struct BodyLimitMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let limit = BodyLimit.bytes(for: request)
        let declared = request.headers.first(name: .contentLength).flatMap(Int.init) ?? 0
        guard declared <= limit, (request.body.data?.readableBytes ?? 0) <= limit else {
            throw BodyLimit.tooLarge(for: request)
        }
        return try await next.respond(to: request)
    }
}

extension RoutesBuilder {
    /// A route whose body is collected up to `limit`, which its 413 names.
    @discardableResult
    func on<Response: AsyncResponseEncodable>(
        _ method: HTTPMethod, _ path: PathComponent..., limit: BodyLimit,
        use closure: @Sendable @escaping (Request) async throws -> Response
    ) -> Route {
        let route = on(method, path, body: limit.strategy, use: closure)
        route.userInfo[BodyLimit.userInfoKey] = limit.bytes
        return route
    }
}
