import Foundation

/// A device key that may sign in, with the device holding it.
struct SignInCandidate: Sendable {
    let key: DeviceKeyRecord
    let device: Device
}

/// Which of a fingerprint's keys a sign-in looks at.
enum SignInKeys: Sendable, Equatable {
    /// The keys with these thumbprints: those that could have made an ECDSA signature.
    case thumbprints([String])
    /// Keys of these types (`rsa-2048`), those of devices last seen in `preferredRange` first, then the oldest
    /// devices first.
    case types([String], preferredRange: String?)
    /// Any key, the oldest devices first.
    case any
}

/// Stores devices and their keys. Every account-scoped call takes the account.
protocol DeviceRepository: Sendable {
    /// Inserts a device with its first key and appends `audit`, in one transaction; throws `CONFLICT` when the key is
    /// registered already.
    func insert(_ device: Device, key: DeviceKeyRecord, audit: AuditAppend?) async throws
    /// Inserts a device that signed in without a device key (with a passkey), and appends `audit`, in one
    /// transaction.
    func insert(_ device: Device, audit: AuditAppend?) async throws
    /// The account's active device for this installation, the one used last when there are several.
    func activeDevice(of account: AccountID, installationHash: String) async throws -> Device?
    /// Records that one of the account's devices signed in.
    func recordUse(of id: DeviceID, account: AccountID, at date: Date) async throws
    /// Deletes the account's devices that hold nothing any more: no device key, no passkey registered from them, no
    /// push token, and no session or personal access token live at `date`. Returns how many.
    func deleteEmptyDevices(of account: AccountID, at date: Date) async throws -> Int
    /// How many devices with a device key, revoked or not, the account has: the ones `accountLimits.devices`
    /// counts.
    func keyedDeviceCount(of account: AccountID) async throws -> Int
    /// Whether a key with this thumbprint is registered, revoked or not.
    func keyExists(thumbprint: String) async throws -> Bool
    /// One of the account's devices.
    func find(_ id: DeviceID, of account: AccountID) async throws -> Device?
    /// The account's devices, oldest first.
    func devices(of account: AccountID) async throws -> [Device]
    /// How many unrevoked keys on active devices the account has: its device-key ways to sign in.
    func activeKeyCount(of account: AccountID) async throws -> Int
    /// The keys of the account's devices, oldest first.
    func keys(of account: AccountID) async throws -> [DeviceKeyRecord]
    /// Whether some active device with this fingerprint has an unrevoked key, whoever's it is.
    func hasSignInKey(fingerprintHash: String) async throws -> Bool
    /// Unrevoked keys on active devices with this fingerprint, of `keys`, that are not locked out for `network` at
    /// `date`; at most `limit`.
    func signInCandidates(fingerprintHash: String, keys: SignInKeys, network: String, at date: Date, limit: Int)
        async throws -> [SignInCandidate]
    /// Records a sign-in with `key` from `network`: its and its device's last use and range, and the network's
    /// failed signatures on the device forgotten.
    func recordSignIn(key: UUID, device: DeviceID, network: String, ipRange: String?, at date: Date) async throws
    /// Counts a failed signature from `network` on each device; a count whose last failure is older than
    /// `lockout.duration` starts again. A count reaching `lockout.threshold` locks `network` out of the device for
    /// `lockout.duration`, and starts again.
    func recordFailedSignature(devices: [DeviceID], network: String, at date: Date, lockout: SignInLockout)
        async throws
    /// For each of the account's devices that some network is locked out of at `date`, the latest end of a lock.
    func lockouts(of account: AccountID, at date: Date) async throws -> [DeviceID: Date]
    /// Deletes the failure counts that can lock nothing any more: not locked at `date` and last failed before
    /// `cutoff`. Returns how many.
    func forgetSignInFailures(before cutoff: Date, at date: Date) async throws -> Int
    /// Renames one of the account's devices; returns whether it exists.
    func rename(_ id: DeviceID, of account: AccountID, to name: String) async throws -> Bool
    /// Sets the push token of one of the account's active devices; returns whether it exists.
    func setPushToken(_ token: PushToken, of id: DeviceID, account: AccountID, at date: Date) async throws -> Bool
    /// Deactivates one of the account's devices at once: the device, its keys, its sessions and the passkeys
    /// registered from it that are device-bound (and the synced ones when `includingSyncedPasskeys`), appending the
    /// audit event `audit` makes of what it revoked. Returns that, or nil when the device was not active.
    func deactivate(
        _ id: DeviceID, of account: AccountID, at date: Date, includingSyncedPasskeys: Bool,
        audit: @escaping @Sendable (DeviceRevocation) -> AuditAppend
    ) async throws -> DeviceRevocation?
    /// Deletes one of the account's devices with its keys, revoking as `deactivate` does; nil when it did not exist.
    func delete(
        _ id: DeviceID, of account: AccountID, at date: Date, includingSyncedPasskeys: Bool,
        audit: @escaping @Sendable (DeviceRevocation) -> AuditAppend
    ) async throws -> DeviceRevocation?
}

/// A push token, for the gateway that issued it.
public enum PushToken: Sendable, Equatable {
    /// A Firebase Cloud Messaging registration token.
    case fcm(String)
    /// An APNs device token, hex.
    case apns(String)
}
