import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Sends to APNs over HTTP/2 with token-based authentication (`POST /3/device/{token}`).
struct APNsClient: PushGatewayClient {
    let http: HTTPClient
    let providerToken: APNsProviderToken
    let settings: HaleConfiguration.APNs
    var timeout: TimeAmount = .seconds(15)

    func send(_ request: PushDeliveryRequest) async -> PushSendOutcome {
        let bearer: String
        do {
            bearer = try providerToken.current()
        } catch {
            return .retry(reason: "provider_token_unavailable")
        }
        guard let outgoing = try? makeRequest(request, bearer: bearer) else {
            return .rejected(reason: "unencodable_payload")
        }
        do {
            let response = try await http.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: 64 * 1024)
            let outcome = Self.outcome(status: Int(response.status.code), reason: Self.reason(in: body))
            if case .retry(let reason) = outcome, Self.providerTokenReasons.contains(reason) {
                providerToken.discard(bearer)
            }
            return outcome
        } catch {
            return .retry(reason: "transport")
        }
    }

    private func makeRequest(_ request: PushDeliveryRequest, bearer: String) throws -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: "\(settings.baseURL)/3/device/\(request.token)")
        outgoing.method = .POST
        outgoing.headers.add(name: "authorization", value: "bearer \(bearer)")
        outgoing.headers.add(name: "apns-push-type", value: "alert")
        outgoing.headers.add(name: "apns-topic", value: settings.topic)
        outgoing.headers.add(name: "apns-priority", value: "10")
        outgoing.headers.add(name: "apns-id", value: request.id.uuidString.lowercased())
        outgoing.headers.add(
            name: "apns-expiration", value: String(Int(request.expiresAt.timeIntervalSince1970.rounded(.down))))
        if let collapseID = request.collapseID {
            outgoing.headers.add(name: "apns-collapse-id", value: collapseID)
        }
        outgoing.headers.add(name: "content-type", value: "application/json")
        outgoing.body = .bytes(ByteBuffer(bytes: try Self.payload(request)))
        return outgoing
    }

    /// The app's data fields beside `aps`, so an iOS app reads `type` where the FCM data message has it.
    static func payload(_ request: PushDeliveryRequest) throws -> Data {
        var payload: [String: Any] = request.data
        payload["aps"] = [
            "alert": [
                "title": PushAlertText.title(request.kind, data: request.data),
                "body": PushAlertText.body(request.kind, data: request.data),
            ],
            "sound": "default",
        ]
        return try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
    }

    /// The `reason` of an APNs error body.
    private static func reason(in body: ByteBuffer) -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
        return object?["reason"] as? String ?? ""
    }

    /// Reasons that mean the provider token must be made anew, then the message tried again.
    static let providerTokenReasons: Set<String> = ["ExpiredProviderToken", "InvalidProviderToken"]
    /// Reasons that mean the device token is dead. `DeviceTokenNotForTopic` is not one: a wrong `push.apns.bundleId`
    /// would otherwise clear every device's token.
    static let deadTokenReasons: Set<String> = ["BadDeviceToken", "Unregistered"]

    /// Apple's "Handling notification responses from APNs": 200 sent; 410 the token is no longer active; 400
    /// BadDeviceToken; 403 provider token problems; 429 and 5xx come and go.
    static func outcome(status: Int, reason: String) -> PushSendOutcome {
        switch status {
        case 200: return .delivered
        case 410: return .tokenInvalid(reason: reason.isEmpty ? "Unregistered" : reason)
        case 400 where deadTokenReasons.contains(reason): return .tokenInvalid(reason: reason)
        case 403 where providerTokenReasons.contains(reason): return .retry(reason: reason)
        case 429, 500...599: return .retry(reason: reason.isEmpty ? "status_\(status)" : reason)
        default: return .rejected(reason: reason.isEmpty ? "status_\(status)" : reason)
        }
    }
}
