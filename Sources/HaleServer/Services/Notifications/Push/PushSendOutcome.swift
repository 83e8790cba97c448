import Foundation

/// One message as a gateway client sends it: the device's current token and what to show or hand the app.
struct PushDeliveryRequest: Sendable {
    /// The outbox message id; sent as `apns-id` and logged.
    let id: UUID
    /// The device's push token. Never logged.
    let token: String
    /// What the message is for.
    let kind: PushKind
    /// The data fields, all strings as FCM requires; `type` among them.
    let data: [String: String]
    /// Messages with the same collapse id replace each other on the device.
    let collapseID: String?
    /// After this the gateway should stop trying.
    let expiresAt: Date
}

/// What a gateway said about one message.
enum PushSendOutcome: Sendable, Equatable {
    /// Accepted for delivery.
    case delivered
    /// The token is no longer valid: the device's token is cleared and the message not retried.
    case tokenInvalid(reason: String)
    /// A passing failure (throttled, unavailable, network): try again later.
    case retry(reason: String)
    /// The gateway refused the message itself: trying again cannot help.
    case rejected(reason: String)
}

/// Sends one message through one gateway. Implementations never log tokens, keys or payloads.
protocol PushGatewayClient: Sendable {
    /// Sends the message and classifies the answer; transport errors are `.retry`.
    func send(_ request: PushDeliveryRequest) async -> PushSendOutcome
}
