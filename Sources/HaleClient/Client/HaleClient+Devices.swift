import Foundation

/// Seed 002's device management.
extension HaleClient {
    /// The account's devices, with their keys, passkeys, push registrations and sessions.
    public func devices() async throws -> [Device] {
        let answer: DeviceList = try await send("GET", "api/v1/devices", as: .session)
        return answer.devices
    }

    /// Registers a device's push token: an APNs device token (hex) or an FCM registration token. Without `deviceId`,
    /// the device this client signed in on with its device key.
    public func setPushToken(deviceId: String? = nil, apnsToken: String? = nil, fcmToken: String? = nil) async throws {
        _ = try await send(
            "PUT", "api/v1/devices/push-token",
            json: PushTokenBody(deviceId: deviceId, fcmToken: fcmToken, apnsToken: apnsToken), as: .session)
    }

    /// Renames a device.
    public func renameDevice(_ id: String, to name: String) async throws {
        _ = try await send("PATCH", "api/v1/devices/\(id)", json: ["deviceName": name], as: .session)
    }

    /// Deactivates a device: its keys stop signing in, its sessions end and the passkeys registered from it that live
    /// only there are deleted; the synced ones too with `includingSyncedPasskeys`. Returns what was revoked.
    @discardableResult
    public func deactivateDevice(_ id: String, includingSyncedPasskeys: Bool = false) async throws
        -> DeviceRevocation
    {
        let answer: Revoked = try await send(
            "POST", "api/v1/devices/\(id)/deactivate", query: Self.revocationQuery(includingSyncedPasskeys),
            json: EmptyBody(), as: .session)
        return answer.revoked
    }

    /// Deletes a device, revoking as `deactivateDevice` does.
    @discardableResult
    public func deleteDevice(_ id: String, includingSyncedPasskeys: Bool = false) async throws -> DeviceRevocation {
        let answer: Revoked = try await send(
            "DELETE", "api/v1/devices/\(id)", query: Self.revocationQuery(includingSyncedPasskeys), json: nil,
            as: .session)
        return answer.revoked
    }

    private static func revocationQuery(_ includingSyncedPasskeys: Bool) -> [URLQueryItem] {
        includingSyncedPasskeys ? [URLQueryItem(name: "revokeSyncedPasskeys", value: "true")] : []
    }

    private struct Revoked: Decodable { let revoked: DeviceRevocation }

    private struct DeviceList: Decodable { let devices: [Device] }

    private struct PushTokenBody: Encodable, Sendable {
        let deviceId: String?
        let fcmToken: String?
        let apnsToken: String?
    }
}
