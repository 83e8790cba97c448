import Foundation

/// The device a passkey sign-in's session belongs to, so that the device stays the unit that is listed and revoked
/// whatever the sign-in method: the installation's own device when the app names its installation
/// (`X-Installation-Id`), else the device a device-bound passkey was registered from, else a device created at
/// sign-in. A device created for an account that already existed is a sign-in from a new device: it is audited as
/// `new_device_sign_in`, which alerts the account's other devices.
public struct SignInDevices: Sendable {
    let repository: any DeviceRepository
    let audit: AuditTrail
    let clock: HaleClock

    /// An installation id: a UUID or any app-chosen identifier, in printable ASCII.
    public static let installationIDRule = TextRule(1...128, .bytes, .printableASCII)
    /// The header an app names its installation in.
    public static let installationHeader = "X-Installation-Id"

    /// Where a sign-in comes from.
    public struct Origin: Sendable {
        /// The installation id the app sent, checked.
        public var installation: String?
        /// What the app said about the device, where it said anything.
        public var description: PasskeyDevice?
        /// The device the passkey used was registered from, when it is device-bound.
        public var passkeyDevice: DeviceID?

        /// An origin.
        public init(installation: String? = nil, description: PasskeyDevice? = nil, passkeyDevice: DeviceID? = nil) {
            self.installation = installation
            self.description = description
            self.passkeyDevice = passkeyDevice
        }
    }

    /// `X-Installation-Id` checked: nil when absent, a 400 naming the header and its rule when malformed.
    public static func installation(_ header: String?) throws -> String? {
        try header.map { try installationIDRule.check($0, field: installationHeader) }
    }

    /// The device for a sign-in with `method` to `account` from `origin`, marked used. `isNewAccount` says the
    /// account was made by this sign-in: its first device is no news to anyone.
    func device(for account: AccountID, from origin: Origin, method: String, isNewAccount: Bool) async throws
        -> DeviceID
    {
        let now = clock.now()
        if let existing = try await existingDevice(for: account, from: origin) {
            try await repository.recordUse(of: existing, account: account, at: now)
            return existing
        }
        _ = try await repository.deleteEmptyDevices(of: account, at: now)
        let device = Self.newDevice(
            of: account, installation: origin.installation, name: Self.name(origin.description, method: method),
            deviceType: Self.deviceType(origin.description?.platform), at: now)
        let event =
            isNewAccount
            ? nil
            : audit.prepare(
                .newDeviceSignIn, AuditTrail.Subject(account: account, device: device.id),
                details: ["signInMethod": method])
        try await repository.insert(device, audit: event)
        return device.id
    }

    /// A device a sign-in makes for `installation`, or for an installation that named none: it has no key, and its
    /// fingerprint is one no device key will ever send.
    static func newDevice(of account: AccountID, installation: String?, name: String, deviceType: String, at now: Date)
        -> Device
    {
        Device(
            id: .random(), accountId: account, name: name, deviceType: deviceType,
            fingerprintHash: OpaqueToken.hash("installation:\(installation ?? OpaqueToken.generate())"),
            fcmToken: nil, apnsToken: nil, pushTokenUpdatedAt: nil, createdAt: now, lastUsedAt: now, lastIpRange: nil,
            deactivatedAt: nil, installationHash: installation.map(OpaqueToken.hash))
    }

    private func existingDevice(for account: AccountID, from origin: Origin) async throws -> DeviceID? {
        if let installation = origin.installation {
            return try await repository.activeDevice(of: account, installationHash: OpaqueToken.hash(installation))?.id
        }
        guard let id = origin.passkeyDevice, let device = try await repository.find(id, of: account),
            device.deactivatedAt == nil
        else { return nil }
        return device.id
    }

    private static func name(_ description: PasskeyDevice?, method: String) -> String {
        if let name = description?.deviceName { return name }
        switch description?.platform {
        case "ios": return "iOS device"
        case "android": return "Android device"
        case "web": return "Web browser"
        default: return "Signed in with \(method == "passkey" ? "a passkey" : method)"
        }
    }

    private static func deviceType(_ platform: String?) -> String {
        switch platform {
        case "ios", "android": "mobile"
        case "web": "web"
        default: "unknown"
        }
    }
}
