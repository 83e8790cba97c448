/// What a push message is for: the `type` data field apps switch on (seed 002's notification handling).
public enum PushKind: String, Sendable, Codable, CaseIterable {
    /// A security event on the account, shown to the person.
    case securityAlert = "security_alert"
    /// A request the person approves on the device with a signature.
    case confirmationRequest = "confirmation_request"
}

/// The gateway that delivers to a device: decided by which push token the device has.
public enum PushGateway: String, Sendable, Codable, CaseIterable {
    /// Apple Push Notification service, for an APNs device token.
    case apns
    /// Firebase Cloud Messaging, for an FCM registration token.
    case fcm
}
