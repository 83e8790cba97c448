import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// The whole confirmation flow: the backend asks, the device signs its answer, Hale verifies and records it once.
@Suite("Confirmations: approve, deny, expire, replay")
struct ConfirmationFlowTests {
    @Test("each seed 002 client flavour approves with its own signature convention", arguments: DeviceFlavour.allCases)
    func approve(flavour: DeviceFlavour) async throws {
        try await ConfirmationHTTP.run(flavour) { flow in
            let confirmation = try await flow.created()
            let id = try #require(confirmation["id"] as? String)
            #expect(confirmation["status"] as? String == "pending")
            #expect(confirmation["actionPayload"] as? String == #"{"amount":"49.90","currency":"EUR","to":"Ana"}"#)
            #expect(confirmation["decision"] is NSNull)
            let pending = try await flow.get("/api/v1/confirmations").json()["confirmations"] as? [[String: Any]]
            #expect(pending?.compactMap { $0["id"] as? String } == [id])
            let answered = try await flow.answer(id, "approve", signature: try flow.signature(confirmation, .approve))
            #expect(answered.status == .ok, "\(answered.body.string)")
            let shown = try answered.json()["confirmation"] as? [String: Any] ?? [:]
            #expect(shown["status"] as? String == "approved")
            #expect(shown["deviceId"] as? String == flow.deviceId)
            let status = try await flow.get("/api/v1/admin/confirmations/\(id)", bearer: flow.adminKey)
            #expect((try status.json()["confirmation"] as? [String: Any])?["status"] as? String == "approved")
            let events = try await flow.app.hale.audit.events(of: flow.account)
            #expect(events.first?.eventType == AuditEventType.confirmationApproved.rawValue)
            let after = try await flow.get("/api/v1/confirmations").json()["confirmations"] as? [[String: Any]]
            #expect(after?.isEmpty == true)
        }
    }

    @Test("a denial is signed like an approval and recorded as denied", arguments: TestDatabase.available)
    func deny(database: TestDatabase) async throws {
        try await ConfirmationHTTP.run(on: database) { flow in
            let confirmation = try await flow.created()
            let id = try #require(confirmation["id"] as? String)
            let answered = try await flow.answer(id, "deny", signature: try flow.signature(confirmation, .deny))
            #expect(answered.status == .ok, "\(answered.body.string)")
            #expect((try answered.json()["confirmation"] as? [String: Any])?["status"] as? String == "denied")
            let events = try await flow.app.hale.audit.events(of: flow.account)
            #expect(events.first?.eventType == AuditEventType.confirmationDenied.rawValue)
        }
    }

    @Test("with several confirmations, each is found by its own id: by the backend and by the account's device")
    func eachByItsOwnID() async throws {
        try await ConfirmationHTTP.run { flow in
            let first = try #require(try await flow.created()["id"] as? String)
            let second = try #require(
                try await flow.created(payload: #"{"amount":"1.00","currency":"EUR","to":"Bo"}"#)["id"] as? String)
            for id in [first, second] {
                let admin = try await flow.get("/api/v1/admin/confirmations/\(id)", bearer: flow.adminKey)
                #expect((try admin.json()["confirmation"] as? [String: Any])?["id"] as? String == id)
                let own = try await flow.get("/api/v1/confirmations/\(id)")
                #expect((try own.json()["confirmation"] as? [String: Any])?["id"] as? String == id)
            }
        }
    }

    @Test("an answer counts once: the same answer again, or the other one, is 409", arguments: TestDatabase.available)
    func replay(database: TestDatabase) async throws {
        try await ConfirmationHTTP.run(on: database) { flow in
            let confirmation = try await flow.created()
            let id = try #require(confirmation["id"] as? String)
            let approval = try flow.signature(confirmation, .approve)
            #expect(try await flow.answer(id, "approve", signature: approval).status == .ok)
            let again = try await flow.answer(id, "approve", signature: approval)
            #expect(again.status == .conflict)
            #expect(try again.coreError().error.code == "CONFIRMATION_ALREADY_ANSWERED")
            let denial = try await flow.answer(id, "deny", signature: try flow.signature(confirmation, .deny))
            #expect(denial.status == .conflict)
        }
    }

    @Test("answers racing each other: exactly one wins", .racesNeedPostgreSQL, arguments: TestDatabase.available)
    func racingAnswers(database: TestDatabase) async throws {
        try await ConfirmationHTTP.run(on: database) { flow in
            let confirmation = try await flow.created()
            let id = try #require(confirmation["id"] as? String)
            let approval = try flow.signature(confirmation, .approve)
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<6 { group.addTask { try await flow.answer(id, "approve", signature: approval).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1)
            #expect(statuses.filter { $0 == .conflict }.count == 5)
        }
    }

    @Test(
        "answers racing their device's deactivation: none is counted after it", .racesNeedPostgreSQL,
        arguments: TestDatabase.available)
    func answersRacingTheDevicesDeactivation(database: TestDatabase) async throws {
        for _ in 0..<Self.deactivationRounds {
            try await ConfirmationHTTP.run(on: database) { flow in
                let device = DeviceID(try #require(UUID(uuidString: flow.deviceId)))
                var answers: [(ConfirmationID, String)] = []
                for index in 0..<12 {
                    let confirmation = try await flow.created(
                        payload: #"{"amount":"\#(index).00","currency":"EUR","to":"Ana"}"#)
                    let id = try #require(ConfirmationID(confirmation["id"] as? String ?? ""))
                    answers.append((id, try flow.signature(confirmation, .approve)))
                }
                let confirmations = flow.app.hale.confirmations
                let refusals = try await withThrowingTaskGroup(of: Int.self) { group in
                    for (id, signature) in answers {
                        group.addTask {
                            do {
                                _ = try await confirmations.answer(
                                    id, decision: .approve, signature: signature, account: flow.account,
                                    device: device)
                                return 0
                            } catch let error as HaleError where error == .confirmationWrongDevice {
                                return 1
                            }
                        }
                    }
                    group.addTask {
                        try await flow.app.hale.devices.deactivate(device, of: flow.account, ip: nil)
                        return 0
                    }
                    return try await group.reduce(0, +)
                }
                // Newest first: nothing the device approved may follow its deactivation in the chain.
                let events = try await flow.app.hale.audit.events(of: flow.account).map(\.eventType)
                let deactivation = try #require(events.firstIndex(of: AuditEventType.deviceDeactivated.rawValue))
                #expect(!events[..<deactivation].contains(AuditEventType.confirmationApproved.rawValue))
                let approved = events.filter { $0 == AuditEventType.confirmationApproved.rawValue }
                #expect(approved.count + refusals == answers.count)
            }
        }
    }

    /// Rounds of twelve answers racing one deactivation: without the answer's lock of the device row, at least one
    /// answer lands after the deactivation in most rounds (measured in docs/records/2026-11-27-mutation-races.md).
    private static let deactivationRounds = 3

    @Test("after expiresIn it is expired: an answer is 410 and the backend sees expired")
    func expired() async throws {
        let clock = TestClock(ConfirmationHTTP.start)
        try await ConfirmationHTTP.run(clock: clock) { flow in
            let confirmation = try await flow.created(expiresIn: 60)
            let id = try #require(confirmation["id"] as? String)
            clock.advance(.seconds(60))
            let late = try await flow.answer(id, "approve", signature: try flow.signature(confirmation, .approve))
            #expect(late.status == .gone)
            #expect(try late.coreError().error.code == "CONFIRMATION_EXPIRED")
            let status = try await flow.get("/api/v1/admin/confirmations/\(id)", bearer: flow.adminKey)
            #expect((try status.json()["confirmation"] as? [String: Any])?["status"] as? String == "expired")
            let pending = try await flow.get("/api/v1/confirmations").json()["confirmations"] as? [[String: Any]]
            #expect(pending?.isEmpty == true)
        }
    }

    @Test("creating it pushes a confirmation_request with seed 002's fields to the account's devices")
    func pushed() async throws {
        try await ConfirmationHTTP.run { flow in
            let set = try await flow.api.send(
                .PUT, "/api/v1/devices/push-token", ["deviceId": flow.deviceId, "fcmToken": "fcm-token-1"],
                bearer: flow.deviceToken)
            #expect(set.status == .ok, "\(set.body.string)")
            let confirmation = try await flow.created()
            let messages = try await flow.app.hale.database.sql.select().column("*").from("push_outbox")
                .where("kind", .equal, "confirmation_request")
                .all(decoding: PushOutboxMessage.self, keyDecodingStrategy: .convertFromSnakeCase)
            #expect(messages.count == 1)
            #expect(messages.first?.deviceId.description == flow.deviceId)
            #expect(messages.first?.gateway == "fcm")
            let data =
                try JSONSerialization.jsonObject(with: Data((messages.first?.data ?? "").utf8)) as? [String: String]
            #expect(data?["type"] == "confirmation_request")
            #expect(data?["confirmationId"] == confirmation["id"] as? String)
            #expect(data?["actionType"] == "payment.approve")
            #expect(data?["actionPayload"] == confirmation["actionPayload"] as? String)
        }
    }
}
