import Foundation
import StrictJSON

extension WebhookEvent {
    /// The events an audit event reports to the app's backend, written in the audit event's transaction: its
    /// details (which hold no secret and no health value), its device and session, and `security.alert` when it
    /// alerts the account's devices.
    static func reporting(
        _ type: AuditEventType, _ subject: AuditTrail.Subject, details: [String: String], alert: SecurityAlertKind?,
        at date: Date
    ) -> [WebhookEvent] {
        var data = details.mapValues { JSONValue.string($0) }
        data["deviceId"] = subject.device.map { .string($0.description) }
        data["sessionId"] = subject.session.map { .string($0.description) }
        var events: [WebhookEvent] = []
        if let (reported, extra) = reported(type) {
            events.append(WebhookEvent(reported, account: subject.account, data: data.merging(extra) { $1 }, at: date))
        }
        if let alert {
            var alerted = data
            alerted["kind"] = .string(alert.rawValue)
            alerted["auditEvent"] = .string(type.rawValue)
            events.append(WebhookEvent(.securityAlert, account: subject.account, data: alerted, at: date))
        }
        return events
    }

    /// The webhook event an audit event type is, with what it adds to the data.
    private static func reported(_ type: AuditEventType) -> (WebhookEventType, [String: JSONValue])? {
        switch type {
        case .deviceRegistered: (.deviceRegistered, [:])
        case .deviceDeactivated: (.deviceRevoked, ["reason": .string("deactivated")])
        case .deviceDeleted: (.deviceRevoked, ["reason": .string("deleted")])
        case .passkeyRegistered: (.credentialAdded, ["kind": .string("passkey")])
        case .passkeyDeleted: (.credentialRemoved, ["kind": .string("passkey")])
        case .recoveryCodesCreated: (.credentialAdded, ["kind": .string("recovery_codes")])
        case .emailAddressAdded: (.credentialAdded, ["kind": .string("email_address")])
        case .emailAddressRemoved: (.credentialRemoved, ["kind": .string("email_address")])
        case .socialIdentityLinked: (.credentialAdded, ["kind": .string("social_identity")])
        case .healthConsentGranted: (.consentGranted, [:])
        case .healthConsentRevoked: (.consentRevoked, [:])
        case .healthDataDeleted: (.healthDeleted, [:])
        case .accountDeleted: (.accountDeleted, [:])
        case .signedOutEverywhere: (.sessionRevoked, ["everywhere": .bool(true)])
        default: nil
        }
    }
}
