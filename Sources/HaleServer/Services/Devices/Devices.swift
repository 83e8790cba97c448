import Foundation

/// Devices and their hardware-backed keys (seed 002): registration, sign-in by signed challenge, and management.
/// A device is the unit that is listed and revoked: deactivating it revokes its keys and ends its sessions at once.
public struct Devices: Sendable {
    let repository: any DeviceRepository
    let challenges: ServerChallenges
    let sessions: Sessions
    let audit: AuditTrail
    let settings: HaleConfiguration.DeviceKeys
    /// The most devices one account may have registered, deactivated ones included (`accountLimits.devices`).
    let maximumPerAccount: Int
    let clock: HaleClock

    static let registrationKind = "device_registration"
    static let signInKind = "device_sign_in"
    static let registrationLifetime = Duration.seconds(300)
    /// Seed 002: a sign-in challenge is valid for two minutes.
    static let signInLifetime = Duration.seconds(120)
    /// At most this many keys are tried for one fingerprint; fingerprints are not unique across installations.
    static let candidateLimit = 8

    /// One of the account's devices with what hangs off it.
    public struct Summary: Sendable {
        /// The device.
        public let device: Device
        /// Its keys, revoked ones included.
        public let keys: [DeviceKeyRecord]
        /// Its active sessions.
        public let sessions: [Session]
        /// While some client network is locked out of signing in with it after failed signatures, when the last such
        /// lock ends.
        public let lockedUntil: Date?
    }

    /// The account's devices, oldest first, each with its keys, active sessions and lockout.
    public func list(for account: AccountID) async throws -> [Summary] {
        let devices = try await repository.devices(of: account)
        let keys = Dictionary(grouping: try await repository.keys(of: account), by: \.deviceId)
        let active = Dictionary(grouping: try await sessions.active(of: account), by: \.deviceId)
        let locks = try await repository.lockouts(of: account, at: clock.now())
        return devices.map {
            Summary(device: $0, keys: keys[$0.id] ?? [], sessions: active[$0.id] ?? [], lockedUntil: locks[$0.id])
        }
    }

    /// Forgets failed signatures that can lock nothing any more: those of networks not locked out whose last
    /// failure is older than the lockout duration. Returns how many counts were deleted.
    public func forgetStaleSignInFailures() async throws -> Int {
        let now = clock.now()
        return try await repository.forgetSignInFailures(
            before: now.addingTimeInterval(-settings.lockoutDuration.timeInterval), at: now)
    }

    /// One of the account's devices.
    public func find(_ id: DeviceID, of account: AccountID) async throws -> Summary {
        guard let found = try await list(for: account).first(where: { $0.device.id == id }) else {
            throw HaleError.deviceNotRegistered
        }
        return found
    }

    /// Renames one of the account's devices.
    public func rename(_ id: DeviceID, of account: AccountID, to name: String) async throws {
        guard try await repository.rename(id, of: account, to: try Self.validName(name)) else {
            throw HaleError.deviceNotRegistered
        }
    }

    /// Sets the push token of one of the account's active devices.
    public func setPushToken(_ token: PushToken, of id: DeviceID, account: AccountID) async throws {
        guard try await repository.setPushToken(token, of: id, account: account, at: clock.now()) else {
            throw HaleError.deviceNotRegistered
        }
    }

    /// Deactivates one of the account's devices: its keys are revoked, its sessions end and the passkeys registered
    /// from it that live only there are deleted (the synced ones too when `includingSyncedPasskeys`), in one
    /// transaction; returns what was revoked. The account's other devices are alerted, except `requester`, the
    /// device whose session asked.
    @discardableResult
    public func deactivate(
        _ id: DeviceID, of account: AccountID, ip: String?, requester: DeviceID? = nil,
        includingSyncedPasskeys: Bool = false
    ) async throws -> DeviceRevocation {
        let event = revocationEvent(.deviceDeactivated, id, of: account, ip: ip, requester: requester)
        guard
            let revoked = try await repository.deactivate(
                id, of: account, at: clock.now(), includingSyncedPasskeys: includingSyncedPasskeys, audit: event)
        else {
            throw HaleError.deviceNotRegistered
        }
        return revoked
    }

    /// Deletes one of the account's devices and its keys, revoking as `deactivate` does; audited, and an alert to
    /// the account's other devices except the one that asked.
    @discardableResult
    public func delete(
        _ id: DeviceID, of account: AccountID, ip: String? = nil, requester: DeviceID? = nil,
        includingSyncedPasskeys: Bool = false
    ) async throws -> DeviceRevocation {
        let event = revocationEvent(.deviceDeleted, id, of: account, ip: ip, requester: requester)
        guard
            let revoked = try await repository.delete(
                id, of: account, at: clock.now(), includingSyncedPasskeys: includingSyncedPasskeys, audit: event)
        else {
            throw HaleError.deviceNotRegistered
        }
        return revoked
    }

    /// The audit event of a device's revocation, made once the transaction knows what it revoked; an alert to
    /// the account's other devices except the one that asked.
    private func revocationEvent(
        _ type: AuditEventType, _ id: DeviceID, of account: AccountID, ip: String?, requester: DeviceID?
    ) -> @Sendable (DeviceRevocation) -> AuditAppend {
        let audit = audit
        let subject = AuditTrail.Subject(account: account, device: id, ipRange: ip.flatMap(IPRange.of))
        let excluded = Set([id, requester].compactMap { $0 })
        return { revoked in
            audit.prepare(type, subject, details: revoked.auditDetails, alertExcluding: excluded)
        }
    }

    /// A 409 when the account has as many devices as it may: checked when a registration starts, and again before
    /// it completes, since several may be under way at once.
    func requireRoom(in account: AccountID) async throws {
        let count = try await repository.keyedDeviceCount(of: account)
        guard count < maximumPerAccount else {
            throw HaleError.limitReached(
                "This account has \(count) devices, the most it may have (\(maximumPerAccount)); delete one to add another."
            )
        }
    }

    static func validName(_ name: String) throws -> String {
        try TextRule.name.checkTrimmed(name, field: "deviceName")
    }
}
