import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Listing, renaming, push tokens, deactivation and deletion of devices.
@Suite("HTTP: seed 002 devices")
struct DeviceManagementTests {
    struct DeviceList: Decodable {
        struct Device: Decodable {
            struct Key: Decodable {
                let keyType: String
                let revokedAt: String?
            }
            struct Push: Decodable {
                let provider: String
            }
            struct SessionSummary: Decodable {
                let signInMethod: String
                let current: Bool
            }
            let id: String
            let name: String
            let active: Bool
            let keys: [Key]
            let pushTokens: [Push]
            let sessions: [SessionSummary]
        }
        let devices: [Device]
    }

    private func devices(_ api: DeviceAPI, bearer: String) async throws -> [DeviceList.Device] {
        let response = try await api.send(.GET, "/api/v1/devices", bearer: bearer)
        #expect(response.status == .ok, "\(response.body.string)")
        return try api.decode(DeviceList.self, response).devices
    }

    /// Registers a device and signs in on it; returns the device id and the session's access token.
    private func signedInDevice(_ api: DeviceAPI, bearer: String) async throws -> (String, String, DeviceClient) {
        let client = try DeviceClient(.iOS)
        let id = try await api.register(client, bearer: bearer)
        let tokens = try api.decode(DeviceAPI.SignedIn.self, try await api.signIn(client)).tokens
        return (id, tokens.accessToken, client)
    }

    @Test(
        "the list shows each device with its keys, push registrations and sessions", arguments: TestDatabase.available)
    func list(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let (id, access, _) = try await signedInDevice(api, bearer: bearer)
            let pushed = try await api.send(
                .PUT, "/api/v1/devices/push-token", ["deviceId": id, "fcmToken": "fcm:abc"], bearer: access)
            #expect(pushed.status == .ok, "\(pushed.body.string)")
            let listed = try await devices(api, bearer: access)
            #expect(listed.count == 1)
            let device = try #require(listed.first)
            #expect(device.id == id)
            #expect(device.active)
            #expect(device.keys.map(\.keyType) == ["ec-p256"])
            #expect(device.pushTokens.map(\.provider) == ["fcm"])
            #expect(device.sessions.count == 1)
            #expect(device.sessions.first?.current == true)
            #expect(device.sessions.first?.signInMethod == "device_key")
            #expect(!pushed.body.string.contains("fcm:abc"))
        }
    }

    @Test("each device is seed 002's object, {id, deviceName, isActive}, with Hale's fields beside it")
    func seedDeviceObject() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let (id, _, _) = try await signedInDevice(api, bearer: bearer)
            _ = try await api.send(.PATCH, "/api/v1/devices/\(id)", ["deviceName": "Work phone"], bearer: bearer)
            let active = try await rawDevice(api, bearer: bearer)
            #expect(active["id"] as? String == id)
            #expect(active["deviceName"] as? String == "Work phone")
            #expect(active["name"] as? String == "Work phone")
            #expect(active["isActive"] as? Bool == true)
            #expect(active["active"] as? Bool == true)
            _ = try await api.send(.POST, "/api/v1/devices/\(id)/deactivate", bearer: bearer)
            let deactivated = try await rawDevice(api, bearer: bearer)
            #expect(deactivated["isActive"] as? Bool == false)
            #expect(deactivated["active"] as? Bool == false)
        }
    }

    private func rawDevice(_ api: DeviceAPI, bearer: String) async throws -> [String: Any] {
        let response = try await api.send(.GET, "/api/v1/devices", bearer: bearer)
        let body = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return try #require((body?["devices"] as? [[String: Any]])?.first)
    }

    @Test(
        "a push token without a device id is the signed-in device's, as seed 002's iOS client sends it",
        arguments: TestDatabase.available)
    func pushTokenOfTheSignedInDevice(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let (first, _, _) = try await signedInDevice(api, bearer: bearer)
            let (second, access, _) = try await signedInDevice(api, bearer: bearer)
            let pushed = try await api.send(.PUT, "/api/v1/devices/push-token", ["fcmToken": "fcm:abc"], bearer: access)
            #expect(pushed.status == .ok, "\(pushed.body.string)")
            let listed = try await devices(api, bearer: bearer)
            #expect(listed.first { $0.id == second }?.pushTokens.map(\.provider) == ["fcm"])
            #expect(listed.first { $0.id == first }?.pushTokens.isEmpty == true)

            let noDevice = try await api.send(
                .PUT, "/api/v1/devices/push-token", ["fcmToken": "fcm:abc"], bearer: bearer)
            #expect(noDevice.status == .badRequest)
            let error = try noDevice.coreError().error
            #expect(error.code == "INVALID_REQUEST")
            #expect(error.message.hasPrefix("deviceId is required"))
        }
    }

    @Test("a device can be renamed")
    func rename() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let (id, _, _) = try await signedInDevice(api, bearer: bearer)
            let response = try await api.send(
                .PATCH, "/api/v1/devices/\(id)", ["deviceName": "  Work phone "], bearer: bearer)
            #expect(response.status == .ok, "\(response.body.string)")
            #expect(try await devices(api, bearer: bearer).first?.name == "Work phone")
        }
    }

    @Test("an APNs token must be hex; exactly one token is sent")
    func pushTokenValidation() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let (id, _, _) = try await signedInDevice(api, bearer: bearer)
            let hex = String(repeating: "ab", count: 32)
            #expect(
                try await api.send(
                    .PUT, "/api/v1/devices/push-token", ["deviceId": id, "apnsToken": hex], bearer: bearer
                ).status == .ok)
            let notHex = try await api.send(
                .PUT, "/api/v1/devices/push-token", ["deviceId": id, "apnsToken": "zz"], bearer: bearer)
            #expect(try notHex.coreError().error.code == "INVALID_REQUEST")
            let both = try await api.send(
                .PUT, "/api/v1/devices/push-token", ["deviceId": id, "apnsToken": hex, "fcmToken": "x"], bearer: bearer)
            #expect(try both.coreError().error.code == "INVALID_REQUEST")
        }
    }

    @Test("deactivating a device revokes its keys and ends its sessions at once", arguments: TestDatabase.available)
    func deactivate(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let (id, access, client) = try await signedInDevice(api, bearer: bearer)
            let response = try await api.send(.POST, "/api/v1/devices/\(id)/deactivate", bearer: bearer)
            #expect(response.status == .ok, "\(response.body.string)")
            #expect(try await api.send(.GET, "/api/v1/devices", bearer: access).status == .unauthorized)
            let refused = try await api.signIn(client)
            #expect(try refused.coreError().error.code == "DEVICE_NOT_REGISTERED", "its only key is gone")
            let device = try #require(try await devices(api, bearer: bearer).first)
            #expect(!device.active)
            #expect(device.keys.allSatisfy { $0.revokedAt != nil })
            #expect(device.sessions.isEmpty)
            let again = try await api.send(.POST, "/api/v1/devices/\(id)/deactivate", bearer: bearer)
            #expect(try again.coreError().error.code == "DEVICE_NOT_REGISTERED")
        }
    }

    @Test("deleting a device removes it and ends its sessions")
    func delete() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app)
            let (id, access, client) = try await signedInDevice(api, bearer: bearer)
            #expect(try await api.send(.DELETE, "/api/v1/devices/\(id)", bearer: bearer).status == .ok)
            #expect(try await devices(api, bearer: bearer).isEmpty)
            #expect(try await api.send(.GET, "/api/v1/devices", bearer: access).status == .unauthorized)
            let refused = try await api.signIn(client)
            #expect(try refused.coreError().error.code == "DEVICE_NOT_REGISTERED", "its only key is gone")
            let again = try await api.send(.DELETE, "/api/v1/devices/\(id)", bearer: bearer)
            #expect(again.status == .notFound)
        }
    }

    @Test("another account's device is not found", arguments: ["rename", "deactivate", "delete", "push"])
    func otherAccount(operation: String) async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeSignedInAccount(app, email: "one@example.com")
            let (_, stranger) = try await makeSignedInAccount(app, email: "two@example.com")
            let (id, _, _) = try await signedInDevice(api, bearer: bearer)
            let response: TestingHTTPResponse =
                switch operation {
                case "rename":
                    try await api.send(.PATCH, "/api/v1/devices/\(id)", ["deviceName": "mine"], bearer: stranger)
                case "deactivate": try await api.send(.POST, "/api/v1/devices/\(id)/deactivate", bearer: stranger)
                case "delete": try await api.send(.DELETE, "/api/v1/devices/\(id)", bearer: stranger)
                default:
                    try await api.send(
                        .PUT, "/api/v1/devices/push-token", ["deviceId": id, "fcmToken": "t"], bearer: stranger)
                }
            #expect(response.status == .notFound)
            #expect(try response.coreError().error.code == "DEVICE_NOT_REGISTERED")
            #expect(try await devices(api, bearer: bearer).first?.active == true)
        }
    }

    @Test("a device id that is not a UUID names no device")
    func malformedID() async throws {
        try await withHale { app in
            let (_, bearer) = try await makeSignedInAccount(app)
            let response = try await DeviceAPI(app: app).send(.DELETE, "/api/v1/devices/not-a-uuid", bearer: bearer)
            #expect(try response.coreError().error.code == "DEVICE_NOT_REGISTERED")
        }
    }
}
