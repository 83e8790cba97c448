import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Sends data messages through FCM HTTP v1 (`POST /v1/projects/{project}/messages:send`).
struct FCMClient: PushGatewayClient {
    let http: HTTPClient
    let accessToken: FCMAccessToken
    let settings: HaleConfiguration.FCM
    let clock: HaleClock
    var timeout: TimeAmount = .seconds(15)

    func send(_ request: PushDeliveryRequest) async -> PushSendOutcome {
        let bearer: String
        do {
            bearer = try await accessToken.current()
        } catch {
            return .retry(reason: "access_token_unavailable")
        }
        guard let outgoing = try? makeRequest(request, bearer: bearer) else {
            return .rejected(reason: "unencodable_payload")
        }
        do {
            let response = try await http.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: 64 * 1024)
            let outcome = FCMError(body).outcome(status: Int(response.status.code))
            if Int(response.status.code) == 401 { await accessToken.discard(bearer) }
            return outcome
        } catch {
            return .retry(reason: "transport")
        }
    }

    private func makeRequest(_ request: PushDeliveryRequest, bearer: String) throws -> HTTPClientRequest {
        let project = settings.projectID
        var outgoing = HTTPClientRequest(url: "\(settings.baseURL)/v1/projects/\(project)/messages:send")
        outgoing.method = .POST
        outgoing.headers.add(name: "authorization", value: "Bearer \(bearer)")
        outgoing.headers.add(name: "content-type", value: "application/json")
        outgoing.body = .bytes(ByteBuffer(bytes: try Self.body(request, now: clock.now())))
        return outgoing
    }

    /// A data message (every value a string, as FCM requires) at high priority, living until the message expires.
    static func body(_ request: PushDeliveryRequest, now: Date) throws -> Data {
        let ttl = max(0, Int(request.expiresAt.timeIntervalSince(now).rounded(.down)))
        var android: [String: Any] = ["priority": "HIGH", "ttl": "\(ttl)s"]
        if let collapseID = request.collapseID { android["collapse_key"] = collapseID }
        let message: [String: Any] = ["token": request.token, "data": request.data, "android": android]
        return try JSONSerialization.data(withJSONObject: ["message": message], options: [.sortedKeys])
    }
}
