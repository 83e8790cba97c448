import DeviceKeys
import Foundation

/// What an app sends to register a device (seed 002's `DeviceRegistrationChallengeRequest`).
public struct DeviceRegistrationRequest: Sendable {
    /// What kind of device it is.
    public enum DeviceType: String, Sendable, CaseIterable {
        /// A phone.
        case mobile
        /// A tablet.
        case tablet
    }

    /// The algorithm an app declares for its key.
    public enum KeyAlgorithm: String, Sendable, CaseIterable {
        /// ECDSA on P-256 with SHA-256.
        case es256 = "ES256"
        /// RSASSA-PKCS1-v1_5 with SHA-256.
        case rs256 = "RS256"
    }

    /// The device's name.
    public var deviceName: String
    /// The kind of device.
    public var deviceType: DeviceType
    /// The app's device fingerprint, sent again to sign in.
    public var deviceFingerprint: String
    /// The PEM SubjectPublicKeyInfo of the device's key.
    public var publicKey: String
    /// The algorithm the app declares. The key itself decides how it is verified.
    public var keyAlgorithm: KeyAlgorithm

    /// A registration request.
    public init(
        deviceName: String, deviceType: DeviceType, deviceFingerprint: String, publicKey: String,
        keyAlgorithm: KeyAlgorithm
    ) {
        self.deviceName = deviceName
        self.deviceType = deviceType
        self.deviceFingerprint = deviceFingerprint
        self.publicKey = publicKey
        self.keyAlgorithm = keyAlgorithm
    }
}

extension Devices {
    /// Starts registering a device for the signed-in account: checks the key, and issues the challenge it must sign.
    public func startRegistration(_ request: DeviceRegistrationRequest, account: AccountID) async throws
        -> DeviceChallenge
    {
        let key = try Self.publicKey(request.publicKey)
        try await requireRoom(in: account)
        guard try await !repository.keyExists(thumbprint: key.thumbprint) else {
            throw HaleError(.conflict, .conflict, message: "This device key is registered already.")
        }
        let pending = PendingDeviceRegistration(
            challenge: OpaqueToken.generate(), deviceId: .random(), name: try Self.validName(request.deviceName),
            deviceType: request.deviceType.rawValue,
            fingerprintHash: OpaqueToken.hash(try Self.validFingerprint(request.deviceFingerprint)),
            publicKey: Data(key.derRepresentation).base64EncodedString(),
            declaredAlgorithm: request.keyAlgorithm.rawValue)
        let issued = try await challenges.issue(
            kind: Self.registrationKind, binding: ChallengeBinding(accountId: account),
            lifetime: Self.registrationLifetime, context: try ChallengeContext.encode(pending))
        return DeviceChallenge(
            challenge: pending.challenge, sessionId: issued.value, deviceId: pending.deviceId,
            expiresAt: issued.challenge.expiresAt)
    }

    /// Completes a registration: the challenge is consumed once, then the signature must verify with the key.
    public func completeRegistration(
        sessionId: String, signedChallenge: String, account: AccountID, ip: String?
    ) async throws -> Summary {
        try OpaqueToken.checkPresented(sessionId, field: "sessionId")
        let consumed = try await challenges.consumeOrInvalid(
            kind: Self.registrationKind, value: sessionId, binding: ChallengeBinding(accountId: account))
        let pending = try ChallengeContext.decode(PendingDeviceRegistration.self, from: consumed.context)
        try await requireRoom(in: account)
        guard let der = Data(base64Encoded: pending.publicKey) else { throw HaleError.invalidChallenge }
        let key = try Self.publicKey(der: Array(der))
        let convention: SignatureConvention
        do {
            convention = try key.verify(signature: signedChallenge, challenge: pending.challenge)
        } catch {
            throw HaleError(.signatureFailed, .invalidInput, message: "The signature does not verify: \(error.message)")
        }
        let now = clock.now()
        let device = Device(
            id: pending.deviceId, accountId: account, name: pending.name, deviceType: pending.deviceType,
            fingerprintHash: pending.fingerprintHash, fcmToken: nil, apnsToken: nil, pushTokenUpdatedAt: nil,
            createdAt: now, lastUsedAt: nil, lastIpRange: ip.flatMap(IPRange.of), deactivatedAt: nil)
        let record = DeviceKeyRecord(
            id: UUID(), deviceId: device.id, accountId: account, publicKey: pending.publicKey,
            thumbprint: key.thumbprint, keyType: Self.keyType(key.kind), declaredAlgorithm: pending.declaredAlgorithm,
            signatureConvention: convention.rawValue, createdAt: now, lastUsedAt: nil, revokedAt: nil)
        let event = audit.prepare(
            .deviceRegistered, AuditTrail.Subject(account: account, device: device.id, ipRange: device.lastIpRange),
            details: ["keyType": record.keyType, "signatureConvention": record.signatureConvention])
        try await repository.insert(device, key: record, audit: event)
        return Summary(device: device, keys: [record], sessions: [], lockedUntil: nil)
    }

    static func keyType(_ kind: DevicePublicKey.Kind) -> String {
        switch kind {
        case .p256: "ec-p256"
        case .rsa(let bits): "rsa-\(bits)"
        }
    }

    private static func publicKey(_ pem: String) throws -> DevicePublicKey {
        guard pem.utf8.count <= DevicePublicKey.maximumPEMLength else {
            throw HaleError(
                .invalidPublicKey, .invalidInput,
                message:
                    "publicKey must be at most \(DevicePublicKey.maximumPEMLength) bytes: a PEM SubjectPublicKeyInfo.")
        }
        do {
            return try DevicePublicKey(pemRepresentation: pem)
        } catch {
            throw HaleError(.invalidPublicKey, .invalidInput, message: "\(error.message) (\(error.code))")
        }
    }

    static func publicKey(der: [UInt8]) throws -> DevicePublicKey {
        do {
            return try DevicePublicKey(derRepresentation: der)
        } catch {
            throw HaleError(.invalidPublicKey, .invalidInput, message: "\(error.message) (\(error.code))")
        }
    }

    static func validFingerprint(_ fingerprint: String) throws(InvalidInput) -> String {
        guard (1...256).contains(fingerprint.utf8.count) else {
            throw InvalidInput("deviceFingerprint", .form("1 to 256 bytes"))
        }
        return fingerprint
    }
}
