import Vapor

/// `POST /api/v1/devices/register/challenge` (seed 002's `DeviceRegistrationChallengeRequest`).
struct DeviceRegistrationChallengeRequest: StrictRequestBody {
    static let allowedFields: Set<String> = [
        "deviceName", "deviceType", "deviceFingerprint", "publicKey", "keyAlgorithm",
    ]
    let deviceName: String
    let deviceType: String
    let deviceFingerprint: String
    let publicKey: String
    let keyAlgorithm: String

    /// The request as `Devices` takes it: a device type or key algorithm Hale does not know is refused here.
    func registration() throws(InvalidInput) -> DeviceRegistrationRequest {
        let type = try InvalidInput.parse(
            deviceType, as: DeviceRegistrationRequest.DeviceType.self, field: "deviceType")
        guard let algorithm = DeviceRegistrationRequest.KeyAlgorithm(rawValue: keyAlgorithm) else {
            throw InvalidInput("keyAlgorithm", .form("ES256 or RS256"))
        }
        return DeviceRegistrationRequest(
            deviceName: deviceName, deviceType: type, deviceFingerprint: deviceFingerprint, publicKey: publicKey,
            keyAlgorithm: algorithm)
    }
}

/// The answer to a registration challenge request.
struct DeviceRegistrationChallengeResponse: Content {
    let challenge: String
    let sessionId: String
    let deviceId: String
    let expiresAt: String
}

/// `POST /api/v1/devices/register/verify` (seed 002's `DeviceRegistrationVerifyRequest`).
struct DeviceRegistrationVerifyRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["sessionId", "signedChallenge"]
    let sessionId: String
    let signedChallenge: String
}

/// The answer to a completed registration.
struct DeviceRegistrationVerifyResponse: Content {
    var success = true
    let deviceId: String
    let device: DeviceResponse
}

/// `POST /api/v1/auth/biometric/challenge` (seed 002's `MobileBiometricChallengeRequest`).
struct BiometricChallengeRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["deviceFingerprint"]
    let deviceFingerprint: String
}

/// The answer to a sign-in challenge request.
struct BiometricChallengeResponse: Content {
    let challenge: String
    let sessionId: String
    let expiresAt: String
}

/// `POST /api/v1/auth/biometric/verify` (seed 002's `MobileBiometricLoginRequest`).
struct BiometricLoginRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["sessionId", "signedChallenge", "rememberMe"]
    let sessionId: String
    let signedChallenge: String
    let rememberMe: Bool?
}

/// The answer to a completed sign-in.
struct BiometricLoginResponse: Content {
    var success = true
    let tokens: TokenResponse
}

/// `PATCH /api/v1/devices/{deviceId}`.
struct DeviceRenameRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["deviceName"]
    let deviceName: String
}

/// `PUT /api/v1/devices/push-token`: `{deviceId, fcmToken}` as seed 002's apps send it, or `{deviceId, apnsToken}`.
struct PushTokenRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["deviceId", "fcmToken", "apnsToken"]
    /// Seed 002's iOS client sends none: the token is then the signed-in device's.
    let deviceId: String?
    let fcmToken: String?
    let apnsToken: String?
}

/// `GET /api/v1/devices`.
struct DeviceListResponse: Content {
    let devices: [DeviceResponse]
}

/// A device as its account sees it.
struct DeviceResponse: Content {
    /// A key registered to the device.
    struct Key: Content {
        let id: String
        let keyType: String
        let declaredAlgorithm: String
        let signatureConvention: String
        let createdAt: String
        let lastUsedAt: String?
        let revokedAt: String?
    }

    /// A passkey created on the device.
    struct Passkey: Content {
        let id: String
        let name: String
        let createdAt: String
        let lastUsedAt: String?
    }

    /// The device's push registration; the token itself is not returned.
    struct PushRegistration: Content {
        let provider: String
        let updatedAt: String?
    }

    /// An active session on the device.
    struct SessionSummary: Content {
        let id: String
        let signInMethod: String
        let createdAt: String
        let lastUsedAt: String
        let expiresAt: String
        let current: Bool
    }

    let id: String
    /// Seed 002's name for `name`.
    let deviceName: String
    let name: String
    let deviceType: String
    /// Seed 002's name for `active`.
    let isActive: Bool
    let active: Bool
    /// How the device can sign in or has: `device_key` while a key is live, `passkey` while a passkey registered
    /// from it exists, and the methods of its open sessions.
    let signInMethods: [String]
    let createdAt: String
    let lastUsedAt: String?
    let deactivatedAt: String?
    let lockedUntil: String?
    let keys: [Key]
    let passkeys: [Passkey]
    let pushTokens: [PushRegistration]
    let sessions: [SessionSummary]
}

/// What deactivating or deleting a device revoked: `{success, revoked: {deviceKeys, sessions,
/// personalAccessTokens, passkeys}}`.
struct DeviceRevocationResponse: Content {
    struct Revoked: Content {
        let deviceKeys: Int
        let sessions: Int
        let personalAccessTokens: Int
        /// The ids of the passkeys deleted.
        let passkeys: [String]
    }
    var success = true
    let revoked: Revoked

    init(_ revocation: DeviceRevocation) {
        revoked = Revoked(
            deviceKeys: revocation.deviceKeys, sessions: revocation.sessions,
            personalAccessTokens: revocation.personalAccessTokens,
            passkeys: revocation.passkeys.map { $0.uuidString.lowercased() })
    }
}
