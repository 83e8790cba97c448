import Foundation

extension DeviceResponse {
    init(_ summary: Devices.Summary, passkeys: [PasskeyCredential], currentSession: SessionID?, now: Date) {
        let device = summary.device
        id = device.id.description
        name = device.name
        deviceName = device.name
        deviceType = device.deviceType
        active = device.deactivatedAt == nil
        isActive = active
        createdAt = ISO8601.string(device.createdAt)
        lastUsedAt = device.lastUsedAt.map(ISO8601.string)
        deactivatedAt = device.deactivatedAt.map(ISO8601.string)
        lockedUntil = summary.lockedUntil.flatMap { $0 > now ? ISO8601.string($0) : nil }
        keys = summary.keys.map(Key.init)
        self.passkeys = passkeys.filter { $0.deviceId == device.id }.map(Passkey.init)
        pushTokens = Self.pushRegistrations(device)
        sessions = summary.sessions.map { SessionSummary($0, current: $0.id == currentSession) }
        var methods = Set(summary.sessions.map(\.signInMethod))
        if summary.keys.contains(where: { $0.revokedAt == nil }) { methods.insert("device_key") }
        if !self.passkeys.isEmpty { methods.insert("passkey") }
        signInMethods = methods.sorted()
    }

    private static func pushRegistrations(_ device: Device) -> [PushRegistration] {
        let updated = device.pushTokenUpdatedAt.map(ISO8601.string)
        return [("fcm", device.fcmToken), ("apns", device.apnsToken)].compactMap { provider, token in
            token == nil ? nil : PushRegistration(provider: provider, updatedAt: updated)
        }
    }
}

extension DeviceResponse.Key {
    init(_ record: DeviceKeyRecord) {
        id = record.id.uuidString.lowercased()
        keyType = record.keyType
        declaredAlgorithm = record.declaredAlgorithm
        signatureConvention = record.signatureConvention
        createdAt = ISO8601.string(record.createdAt)
        lastUsedAt = record.lastUsedAt.map(ISO8601.string)
        revokedAt = record.revokedAt.map(ISO8601.string)
    }
}

extension DeviceResponse.Passkey {
    init(_ passkey: PasskeyCredential) {
        id = passkey.id.uuidString.lowercased()
        name = passkey.name
        createdAt = ISO8601.string(passkey.createdAt)
        lastUsedAt = passkey.lastUsedAt.map(ISO8601.string)
    }
}

extension DeviceResponse.SessionSummary {
    init(_ session: Session, current: Bool) {
        id = session.id.description
        signInMethod = session.signInMethod
        createdAt = ISO8601.string(session.createdAt)
        lastUsedAt = ISO8601.string(session.lastUsedAt)
        expiresAt = ISO8601.string(session.expiresAt)
        self.current = current
    }
}
