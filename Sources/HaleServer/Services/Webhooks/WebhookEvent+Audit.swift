import Foundation
import StrictJSON

extension WebhookEvent {
    /// The events an audit event reports to the app's backend, written in the audit event's transaction: the audit
    /// event's details (which hold no secret and no health value), its device and session, and `security.alert`
    /// for an event that alerted the account's devices.
    static func reporting(_ audit: AuditEvent, of account: AccountID, alert: SecurityAlertKind?) -> [WebhookEvent] {
        var data: [String: JSONValue] = [:]
        if case .object(let details)? = try? JSONParser.parse(Array(audit.details.utf8)) { data = details }
        data["deviceId"] = audit.deviceId.map { .string($0.description) }
        data["sessionId"] = audit.sessionId.map { .string($0.description) }
        var events: [WebhookEvent] = []
        if let (type, extra) = reported(AuditEventType(rawValue: audit.eventType)) {
            events.append(WebhookEvent(type, account: account, data: data.merging(extra) { $1 }, at: audit.createdAt))
        }
        if let alert {
            var alerted = data
            alerted["kind"] = .string(alert.rawValue)
            alerted["auditEvent"] = .string(audit.eventType)
            events.append(WebhookEvent(.securityAlert, account: account, data: alerted, at: audit.createdAt))
        }
        return events
    }

    /// The webhook event an audit event type is, with what it adds to the data.
    private static func reported(_ type: AuditEventType?) -> (WebhookEventType, [String: JSONValue])? {
        switch type {
        case .deviceRegistered?: (.deviceRegistered, [:])
        case .deviceDeactivated?: (.deviceRevoked, ["reason": .string("deactivated")])
        case .deviceDeleted?: (.deviceRevoked, ["reason": .string("deleted")])
        case .passkeyRegistered?: (.credentialAdded, ["kind": .string("passkey")])
        case .passkeyDeleted?: (.credentialRemoved, ["kind": .string("passkey")])
        case .recoveryCodesCreated?: (.credentialAdded, ["kind": .string("recovery_codes")])
        case .emailAddressAdded?: (.credentialAdded, ["kind": .string("email_address")])
        case .emailAddressRemoved?: (.credentialRemoved, ["kind": .string("email_address")])
        case .socialIdentityLinked?: (.credentialAdded, ["kind": .string("social_identity")])
        case .healthConsentGranted?: (.consentGranted, [:])
        case .healthConsentRevoked?: (.consentRevoked, [:])
        case .healthDataDeleted?: (.healthDeleted, [:])
        case .accountDeleted?: (.accountDeleted, [:])
        case .signedOutEverywhere?: (.sessionRevoked, ["everywhere": .bool(true)])
        default: nil
        }
    }
}
