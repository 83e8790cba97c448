import Foundation
import HaleTesting
import Testing

@testable import HaleServer

/// Security events write a `security_alert` for each of the account's other devices, in the audit append's
/// transaction, once per event and device.
@Suite("Push: security alert fan-out")
struct SecurityAlertFanOutTests {
    @Test("an alert goes to every other device with a token, through its gateway", arguments: TestDatabase.available)
    func fanOut(on database: TestDatabase) async throws {
        try await PushHarness.run(on: database) { push in
            let (account, _) = try await makeAccount(push.app)
            let (stranger, _) = try await makeAccount(push.app, email: "other@example.com")
            let origin = try await push.device(of: account.id, apns: "aa01")
            let iPhone = try await push.device(of: account.id, apns: "aa02")
            let android = try await push.device(of: account.id, fcm: "fcm-android")
            _ = try await push.device(of: account.id)
            _ = try await push.device(of: stranger.id, fcm: "fcm-stranger")
            try await push.alert(account: account.id, from: origin)
            let messages = try await push.outbox()
            #expect(Set(messages.map(\.deviceId)) == [iPhone, android])
            #expect(try await push.message(to: iPhone).gateway == "apns")
            #expect(try await push.message(to: android).gateway == "fcm")
            #expect(try await push.deliver() == PushDelivery.Report(sent: 2))
            let apple = try #require(push.apns.received.first)
            #expect(push.apns.received.count == 1)
            #expect(apple.deviceToken == "aa02")
            #expect(apple.httpMajorVersion == 2)
            #expect(apple.headers["apns-topic"] == FakeAPNs.bundleID)
            #expect(apple.headers["apns-push-type"] == "alert")
            #expect(apple.headers["apns-priority"] == "10")
            #expect(apple.headers["apns-expiration"] == String(Int(PushHarness.start.timeIntervalSince1970) + 86_400))
            #expect(apple.headers["apns-id"] == messages.first { $0.deviceId == iPhone }?.id.uuidString.lowercased())
            #expect(apple.payload["type"] == .string("security_alert"))
            #expect(apple.payload["alertKind"] == .string("new_device"))
            #expect(apple.payload["deviceId"] == .string(origin.description))
            let google = try #require(push.fcm.received.first)
            #expect(google.deviceToken == "fcm-android")
            #expect(google.data["type"] == "security_alert")
            #expect(google.data["alertKind"] == "new_device")
            #expect(google.android["priority"] == .string("HIGH"))
            #expect(push.apns.rejected.isEmpty && push.fcm.rejected.isEmpty)
            #expect(try await push.outbox().allSatisfy { $0.status == "sent" && $0.attempts == 1 })
        }
    }

    @Test("deactivating a device alerts the rest, not the device nor the one that asked")
    func deactivation() async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            let requester = try await push.device(of: account.id, fcm: "fcm-requester")
            let lost = try await push.device(of: account.id, fcm: "fcm-lost")
            let other = try await push.device(of: account.id, fcm: "fcm-other")
            try await push.app.hale.devices.deactivate(lost, of: account.id, ip: nil, requester: requester)
            let message = try #require(try await push.outbox().first)
            #expect(try await push.outbox().count == 1)
            #expect(message.deviceId == other)
            #expect(message.data.contains("device_deactivated"))
        }
    }

    @Test("deleting a device is audited and alerts the rest, not the device nor the one that asked")
    func deletion() async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            let requester = try await push.device(of: account.id, fcm: "fcm-requester")
            let gone = try await push.device(of: account.id, fcm: "fcm-gone")
            let other = try await push.device(of: account.id, fcm: "fcm-other")
            try await push.app.hale.devices.delete(gone, of: account.id, requester: requester)
            let message = try #require(try await push.outbox().first)
            #expect(try await push.outbox().count == 1)
            #expect(message.deviceId == other)
            #expect(message.data.contains("device_deleted"))
            let events = try await push.app.hale.audit.events(of: account.id)
            #expect(events.first?.eventType == AuditEventType.deviceDeleted.rawValue)
            #expect(events.first?.deviceId == gone)
            try await push.app.hale.devices.delete(other, of: account.id, requester: requester)
            #expect(try await push.outbox().allSatisfy { $0.deviceId != other }, "a deleted device's messages go")
        }
    }

    @Test("a social identity linked through its verified email alerts the account's devices")
    func identityLinked() async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            let phone = try await push.device(of: account.id, fcm: "fcm-phone")
            try await push.alert(.socialIdentityLinked, account: account.id, from: nil)
            #expect(try await push.message(to: phone).data.contains("sign_in_method_linked"))
        }
    }

    @Test("refresh-token reuse alerts the account's other devices")
    func refreshTokenReuse() async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            let phone = try await push.device(of: account.id, fcm: "fcm-phone")
            let tablet = try await push.device(of: account.id, fcm: "fcm-tablet")
            let sessions = push.app.hale.sessions
            let first = try await sessions.start(
                account: account.id, device: phone, signInMethod: "device_key", rememberMe: false)
            let second = try await sessions.refresh(first.refreshToken)
            _ = try await sessions.refresh(second.refreshToken)
            await #expect(throws: HaleError.reusedToken) { try await sessions.refresh(first.refreshToken) }
            let message = try await push.message(to: tablet)
            #expect(message.data.contains("refresh_token_reuse"))
            #expect(try await push.outbox().count == 1)
        }
    }

    @Test("events that raise no alert write no message")
    func quietEvents() async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            _ = try await push.device(of: account.id, fcm: "fcm-phone")
            try await push.alert(.healthDataDeleted, account: account.id, from: nil)
            try await push.alert(.healthConsentGranted, account: account.id, from: nil)
            #expect(try await push.outbox().isEmpty)
        }
    }

    @Test("the same event is enqueued once per device, however often it is written", arguments: TestDatabase.available)
    func duplicateSuppression(on database: TestDatabase) async throws {
        try await PushHarness.run(on: database) { push in
            let (account, _) = try await makeAccount(push.app)
            _ = try await push.device(of: account.id, fcm: "fcm-a")
            _ = try await push.device(of: account.id, apns: "bb01")
            let alert = SecurityAlertFanOut(
                kind: .newPasskey, account: account.id, excluding: [], eventKey: "audit:42", data: [:],
                occurredAt: PushHarness.start, expiresAt: PushHarness.start.addingTimeInterval(60))
            let database = push.app.hale.database
            #expect(try await SQLPushOutboxRepository.enqueue(alert, in: database) == 2)
            #expect(try await SQLPushOutboxRepository.enqueue(alert, in: database) == 0)
            #expect(try await push.outbox().count == 2)
        }
    }
}
