import Foundation
import HaleTesting
import Testing

@testable import HaleServer

/// Delivery of the outbox against fake APNs and FCM: retries, token invalidation, claims and credentials.
@Suite("Push: delivery")
struct PushDeliveryTests {
    @Test("a passing failure is retried with doubling delays, then given up", arguments: TestDatabase.available)
    func backoff(on database: TestDatabase) async throws {
        try await PushHarness.run(on: database) { push in
            let (account, _) = try await makeAccount(push.app)
            let phone = try await push.device(of: account.id, apns: "cc01")
            try await push.alert(account: account.id, from: nil)
            push.apns.script([.internalServerError, .tooManyRequests, .internalServerError])
            #expect(try await push.deliver() == PushDelivery.Report(retried: 1))
            var message = try await push.message(to: phone)
            #expect(message.status == "pending")
            #expect(message.nextAttemptAt == PushHarness.start.addingTimeInterval(30))
            #expect(message.lastError == "InternalServerError")
            #expect(try await push.deliver() == PushDelivery.Report(), "not due yet")
            push.clock.advance(.seconds(30))
            #expect(try await push.deliver() == PushDelivery.Report(retried: 1))
            message = try await push.message(to: phone)
            #expect(message.nextAttemptAt == PushHarness.start.addingTimeInterval(30 + 60))
            push.clock.advance(.seconds(60))
            #expect(try await push.deliver() == PushDelivery.Report(dead: 1))
            message = try await push.message(to: phone)
            #expect(message.status == "dead")
            #expect(message.attempts == 3)
            #expect(push.apns.received.count == 3)
            #expect(
                try await push.stored(phone, of: account.id)?.apnsToken == "cc01", "a passing failure keeps the token")
        }
    }

    @Test("the backoff doubles up to its cap, with up to half of it random")
    func retryPolicy() {
        var policy = PushRetryPolicy(maxAttempts: 10, firstDelay: .seconds(30), maxDelay: .seconds(300)) { 1 }
        #expect((1...6).map { policy.delay(afterAttempts: $0) } == [30, 60, 120, 240, 300, 300])
        #expect(policy.delay(afterAttempts: 10) == nil)
        policy.random = { 0 }
        #expect(policy.delay(afterAttempts: 2) == 30)
    }

    @Test(
        "APNs saying the token is gone clears it and ends the device's other messages",
        arguments: [FakeAPNs.Answer.unregistered, .badDeviceToken])
    func apnsTokenGone(answer: FakeAPNs.Answer) async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            let phone = try await push.device(of: account.id, apns: "dd01")
            try await push.alert(account: account.id, from: nil)
            try await push.alert(.deviceKeyNewIpRange, account: account.id, from: nil)
            push.apns.script([answer])
            #expect(try await push.deliver() == PushDelivery.Report(dead: 1, skipped: 1))
            #expect(try await push.stored(phone, of: account.id)?.apnsToken == nil)
            let outcomes = try await push.outbox().map { "\($0.status):\($0.lastError ?? "")" }
            #expect(outcomes == ["dead:\(answer.reason ?? "")", "skipped:no_token"])
        }
    }

    @Test(
        "FCM saying the token is unregistered or invalid clears it",
        arguments: [FakeFCM.Answer.unregistered, .invalidToken])
    func fcmTokenGone(answer: FakeFCM.Answer) async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            let phone = try await push.device(of: account.id, fcm: "fcm-gone")
            try await push.alert(account: account.id, from: nil)
            push.fcm.script([answer])
            #expect(try await push.deliver() == PushDelivery.Report(dead: 1))
            #expect(try await push.stored(phone, of: account.id)?.fcmToken == nil)
        }
    }

    @Test("a token the app replaced meanwhile is not cleared")
    func replacedTokenKept() async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            let phone = try await push.device(of: account.id, fcm: "fcm-old")
            try await SQLPushOutboxRepository(database: push.app.hale.database).clearToken(
                of: phone, gateway: .fcm, token: "fcm-other", at: PushHarness.start)
            #expect(try await push.stored(phone, of: account.id)?.fcmToken == "fcm-old")
        }
    }

    @Test("a claimed message is not claimed again until its claim lapses", arguments: TestDatabase.available)
    func claims(on database: TestDatabase) async throws {
        try await PushHarness.run(on: database) { push in
            let (account, _) = try await makeAccount(push.app)
            let phone = try await push.device(of: account.id, fcm: "fcm-claimed")
            try await push.alert(account: account.id, from: nil)
            let now = PushHarness.start
            let first = try await push.repository.claimDue(at: now, lease: .seconds(120), limit: 10)
            #expect(first.map(\.token) == ["fcm-claimed"])
            #expect(try await push.repository.claimDue(at: now, lease: .seconds(120), limit: 10).isEmpty)
            #expect(try await push.deliver() == PushDelivery.Report())
            push.clock.advance(.seconds(121))
            let again = try await push.repository.claimDue(
                at: now.addingTimeInterval(121), lease: .seconds(120), limit: 10)
            #expect(again.map(\.message.deviceId) == [phone])
            #expect(again.first?.message.attempts == 2)
            let stale = try #require(first.first?.message)
            #expect(try await push.repository.finish(stale, as: .sent, reason: nil, at: now) == false)
        }
    }

    @Test("concurrent passes send each message once", .racesNeedPostgreSQL, arguments: TestDatabase.available)
    func concurrentPasses(on database: TestDatabase) async throws {
        try await PushHarness.run(on: database) { push in
            let (account, _) = try await makeAccount(push.app)
            for index in 0..<12 {
                _ = try await push.device(of: account.id, fcm: "fcm-\(index)")
            }
            for _ in 0..<5 { try await push.alert(account: account.id, from: nil) }
            let delivery = push.delivery
            let logger = push.logger
            let reports = try await withThrowingTaskGroup(of: PushDelivery.Report.self) { group in
                for _ in 0..<4 { group.addTask { try await delivery.deliverDue(logger: logger) } }
                return try await group.reduce(into: [PushDelivery.Report]()) { $0.append($1) }
            }
            #expect(reports.map(\.sent).reduce(0, +) == 60)
            #expect(push.fcm.received.count == 60)
            #expect(try await push.outbox().allSatisfy { $0.status == "sent" && $0.attempts == 1 })
        }
    }

    @Test("without push configured, messages are written and then skipped")
    func unconfigured() async throws {
        try await PushHarness.run(configured: false) { push in
            let (account, _) = try await makeAccount(push.app)
            _ = try await push.device(of: account.id, apns: "ee01")
            _ = try await push.device(of: account.id, fcm: "fcm-e")
            try await push.alert(account: account.id, from: nil)
            #expect(try await push.deliver() == PushDelivery.Report(skipped: 2))
            #expect(try await push.outbox().allSatisfy { $0.lastError == "gateway_not_configured" })
            #expect(push.apns.received.isEmpty && push.fcm.received.isEmpty)
        }
    }

    @Test("the APNs provider token is reused for 50 minutes, then replaced")
    func providerTokenReuse() async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            _ = try await push.device(of: account.id, apns: "ff01")
            for minutes in [0, 10, 39, 1] {
                push.clock.advance(.seconds(minutes * 60))
                try await push.alert(account: account.id, from: nil)
                try await push.deliver()
            }
            let tokens = push.apns.received.map(\.providerToken)
            #expect(tokens.count == 4)
            #expect(Set(tokens.prefix(3)).count == 1)
            #expect(tokens[3] != tokens[0])
            #expect(push.apns.rejected.isEmpty)
        }
    }

    @Test("an expired provider token is replaced and the message retried")
    func expiredProviderToken() async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            _ = try await push.device(of: account.id, apns: "ff02")
            try await push.alert(account: account.id, from: nil)
            push.apns.script([FakeAPNs.Answer(status: 403, reason: "ExpiredProviderToken")])
            #expect(try await push.deliver() == PushDelivery.Report(retried: 1))
            push.clock.advance(.seconds(30))
            #expect(try await push.deliver() == PushDelivery.Report(sent: 1))
            let tokens = push.apns.received.map(\.providerToken)
            #expect(tokens.count == 2 && tokens[0] != tokens[1])
        }
    }

    @Test("the FCM access token is fetched once and reused until shortly before it expires")
    func accessTokenCaching() async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            _ = try await push.device(of: account.id, fcm: "fcm-cache")
            for minutes in [0, 20, 33, 2] {
                push.clock.advance(.seconds(minutes * 60))
                try await push.alert(account: account.id, from: nil)
                try await push.deliver()
            }
            #expect(push.fcm.received.count == 4)
            #expect(push.fcm.tokenRequests == 2, "the token lives 3599 s and is replaced 5 minutes before")
            let used = push.fcm.received.map(\.accessToken)
            #expect(Set(used.prefix(3)).count == 1 && used[3] != used[0])
            #expect(push.fcm.rejected.isEmpty)
        }
    }

    @Test("logs name messages and outcomes, never tokens or payloads")
    func logHygiene() async throws {
        try await PushHarness.run { push in
            let (account, _) = try await makeAccount(push.app)
            let device = try await push.device(of: account.id, apns: "abcdef0123456789")
            _ = try await push.device(of: account.id, fcm: "fcm-secret-token")
            try await push.alert(account: account.id, from: device)
            try await push.alert(account: account.id, from: nil)
            push.apns.script([.badDeviceToken])
            let capture = LogCapture()
            try await push.delivery.deliverDue(logger: capture.logger())
            let text = capture.text
            #expect(text.contains("push_message"))
            for secret in ["abcdef0123456789", "fcm-secret-token", "ya29", "new_device", "BEGIN"] {
                #expect(!text.contains(secret), "the log shows \(secret)")
            }
        }
    }
}
