import Foundation
import HaleTesting
import Logging
import Testing
import Vapor

@testable import HaleServer

/// The security events the device-key flows record.
@Suite("Audit trail: device-key events")
struct DeviceAuditTests {
    private func types(_ app: Application, _ account: AccountID) async throws -> [String] {
        try await app.hale.audit.events(of: account).map(\.eventType).reversed()
    }

    @Test("registration, deactivation and refresh-token reuse are recorded")
    func recorded() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (account, bearer) = try await makeSignedInAccount(app)
            let client = try DeviceClient(.android)
            let deviceId = try await api.register(client, bearer: bearer)
            let tokens = try api.decode(DeviceAPI.SignedIn.self, try await api.signIn(client)).tokens
            let second = try api.decode(DeviceAPI.Tokens.self, try await api.refresh(tokens.refreshToken))
            _ = try await api.refresh(second.refreshToken)
            #expect(try await api.refresh(tokens.refreshToken).status == .unauthorized)
            #expect(try await api.send(.POST, "/api/v1/devices/\(deviceId)/deactivate", bearer: bearer).status == .ok)
            #expect(
                try await types(app, account.id) == [
                    "device_registered", "refresh_token_reuse_detected", "device_deactivated",
                ])
            let registered = try #require(try await app.hale.audit.events(of: account.id).last)
            #expect(registered.deviceId?.description == deviceId)
            #expect(registered.details.contains("ECDSA_SHA256"))
            #expect(try await app.hale.audit.verify() == .intact(count: 3))
        }
    }

    @Test("a device key used from a new network is recorded, with the network only")
    func newIpRange() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (account, bearer) = try await makeSignedInAccount(app)
            let client = try DeviceClient(.iOS)
            try await api.register(client, bearer: bearer)
            for ip in ["203.0.113.5", "203.0.113.99", "198.51.100.7"] {
                let challenge = try await app.hale.devices.startSignIn(fingerprint: client.fingerprint)
                _ = try await app.hale.devices.completeSignIn(
                    sessionId: challenge.sessionId, signedChallenge: try client.sign(challenge.challenge),
                    rememberMe: false, ip: ip, logger: Logger(label: "test"))
            }
            let events = try await app.hale.audit.events(of: account.id).filter {
                $0.eventType == "device_key_new_ip_range"
            }
            #expect(events.count == 1)
            #expect(events.first?.ipRange == "198.51.100.0/24")
            #expect(events.first?.details.contains("203.0.113.0/24") == true)
            #expect(events.first?.details.contains("198.51.100.7") == false)
        }
    }
}
