import Foundation
import HaleTesting
import Logging
import SQLKit
import Vapor

@testable import HaleServer

/// Hale with fake APNs and FCM on loopback, a test clock, and a delivery whose jitter is fixed at its maximum, so
/// every retry waits exactly the full backoff.
struct PushHarness {
    let app: Application
    let clock: TestClock
    let apns: FakeAPNs
    let fcm: FakeFCM
    let logger = Logger(label: "push-test")

    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// Runs `body` with both fakes configured (or neither, when `configured` is false).
    static func run(
        on database: TestDatabase = .sqlite, configured: Bool = true, settings: [String: String] = [:],
        _ body: (PushHarness) async throws -> Void
    ) async throws {
        let apns = try await FakeAPNs.start()
        let fcm = try await FakeFCM.start()
        let clock = TestClock(start)
        var all = ["push.deliveryInterval": "1h", "push.maxAttempts": "3"]
        if configured {
            all.merge(apns.settings) { $1 }
            all.merge(fcm.settings) { $1 }
        }
        all.merge(settings) { $1 }
        do {
            try await withHale(on: database, clock: clock.clock, settings: all) { app in
                try await body(PushHarness(app: app, clock: clock, apns: apns, fcm: fcm))
            }
        } catch {
            await apns.stop()
            await fcm.stop()
            throw error
        }
        await apns.stop()
        await fcm.stop()
    }

    var delivery: PushDelivery {
        let configured = app.hale.pushDelivery
        var policy = configured.policy
        policy.random = { 1 }
        return PushDelivery(
            repository: configured.repository, gateways: configured.gateways, policy: policy, clock: clock.clock)
    }

    @discardableResult
    func deliver() async throws -> PushDelivery.Report {
        try await delivery.deliverDue(logger: logger)
    }

    var repository: SQLPushOutboxRepository { SQLPushOutboxRepository(database: app.hale.database) }

    /// An active device of `account`, with the push token given.
    func device(of account: AccountID, apns: String? = nil, fcm: String? = nil) async throws -> DeviceID {
        let id = DeviceID.random()
        let now = clock.clock.now()
        let device = Device(
            id: id, accountId: account, name: "Phone", deviceType: "mobile", fingerprintHash: OpaqueToken.hash("\(id)"),
            fcmToken: fcm, apnsToken: apns, pushTokenUpdatedAt: now, createdAt: now, lastUsedAt: nil, lastIpRange: nil,
            deactivatedAt: nil)
        let key = DeviceKeyRecord(
            id: UUID(), deviceId: id, accountId: account, publicKey: "", thumbprint: "\(id)", keyType: "ec-p256",
            declaredAlgorithm: "ES256", signatureConvention: "test", createdAt: now, lastUsedAt: nil, revokedAt: nil)
        try await SQLDeviceRepository(database: app.hale.database).insert(device, key: key, audit: nil)
        return id
    }

    /// The device as stored now.
    func stored(_ id: DeviceID, of account: AccountID) async throws -> HaleServer.Device? {
        try await SQLDeviceRepository(database: app.hale.database).find(id, of: account)
    }

    /// Every outbox message, oldest first.
    func outbox() async throws -> [PushOutboxMessage] {
        try await app.hale.database.sql.select().column("*").from("push_outbox").orderBy("created_at")
            .orderBy("dedupe_key")
            .all(decoding: PushOutboxMessage.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    /// The outbox message for `device`; fails when there is not exactly one.
    func message(to device: DeviceID) async throws -> PushOutboxMessage {
        let messages = try await outbox().filter { $0.deviceId == device }
        guard messages.count == 1, let message = messages.first else {
            throw TestSetupError("expected one message to \(device), found \(messages.count)")
        }
        return message
    }

    /// Records a security event as the device flows do.
    func alert(_ type: AuditEventType = .deviceRegistered, account: AccountID, from device: DeviceID?) async throws {
        try await app.hale.audit.record(type, AuditTrail.Subject(account: account, device: device))
    }
}
