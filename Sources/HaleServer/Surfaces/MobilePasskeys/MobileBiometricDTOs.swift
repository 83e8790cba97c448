import Foundation
import Vapor
import WebAuthn

/// `POST /api/mobile/biometric/register/options`: the device (signed in), or the new account (sign-up).
struct RegisterOptionsRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["platform", "osVersion", "deviceName", "displayName", "email"]
    let platform: String?
    let osVersion: String?
    let deviceName: String?
    let displayName: String?
    let email: String?

    var device: PasskeyDevice {
        PasskeyDevice(platform: platform, osVersion: osVersion, deviceName: deviceName)
    }
}

/// `{options}`: the full Level 3 options Android needs, whose `challenge` and `user` iOS reads.
struct CreationOptionsResponse: Content {
    let options: CreationOptions
}

/// `POST /api/mobile/biometric/register/verify`: what Credential Manager or the iOS app returned.
struct RegisterVerifyRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["credential", "deviceInfo"]
    let credential: RegistrationResponseJSON
    let deviceInfo: PasskeyDevice?
}

/// The outcome of a registration; a sign-up also carries the new session's tokens.
struct RegisterVerifyResponse: Content {
    var success = true
    let passkey: PasskeyResponse
    let accountId: String?
    let token: String?
    let refreshToken: String?
    let expiresAt: String?
    let refreshTokenExpiresAt: String?
    /// With `tokens.bindToAttestation` on: what the next refresh's App Attest assertion is made over.
    let attestationNonce: String?
}

/// `POST /api/mobile/biometric/authenticate/options`.
struct AuthenticateOptionsRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["email"]
    let email: String?
}

/// `{options, uid}`; `uid` identifies the ceremony, never the user.
struct RequestOptionsResponse: Content {
    let options: RequestOptions
    let uid: String
}

/// `POST /api/mobile/biometric/authenticate/verify`.
struct AuthenticateVerifyRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["credential", "uid", "rememberMe"]
    let credential: AuthenticationResponseJSON
    let uid: String
    let rememberMe: Bool?
}

/// A signed-in session: `token` is a Hale access token, or with Firebase minting on a Firebase custom token for the
/// app's `signInWithCustomToken`, Hale's access token then coming as `accessToken`. `expiresAt` is always the Hale
/// access token's expiry.
struct SignInResponse: Content {
    let token: String
    let accessToken: String?
    let refreshToken: String
    let expiresAt: String
    let refreshTokenExpiresAt: String
    let accountId: String
    /// With `tokens.bindToAttestation` on: what the next refresh's App Attest assertion is made over.
    let attestationNonce: String?

    init(account: AccountID, tokens: TokenPair, firebaseCustomToken: String? = nil) {
        token = firebaseCustomToken ?? tokens.accessToken
        accessToken = firebaseCustomToken == nil ? nil : tokens.accessToken
        refreshToken = tokens.refreshToken
        expiresAt = ISO8601.string(tokens.accessTokenExpiresAt)
        refreshTokenExpiresAt = ISO8601.string(tokens.refreshTokenExpiresAt)
        accountId = account.description
        attestationNonce = tokens.attestationNonce
    }
}

/// A passkey as the management routes show it.
struct PasskeyResponse: Content {
    let id: String
    let name: String
    let credentialId: String
    let aaguid: String
    /// The provider's name for its AAGUID, when known (`PasskeyProviders`).
    let provider: String?
    let attestationFormat: String
    let backupEligible: Bool
    let backupState: Bool
    let transports: [String]
    let device: PasskeyDevice
    let createdAt: String
    let lastUsedAt: String?
    /// When a sign-in with it last showed a sign of a cloned authenticator.
    let suspectedCloneAt: String?
    /// `sign_count_regression` or `backup_eligibility_changed`.
    let suspectedCloneReason: String?

    init(_ passkey: PasskeyCredential) {
        id = passkey.id.uuidString.lowercased()
        name = passkey.name
        credentialId = passkey.credentialId
        aaguid = passkey.aaguid
        provider = PasskeyProviders.name(ofAAGUID: passkey.aaguid)
        attestationFormat = passkey.attestationFormat
        backupEligible = passkey.backupEligible
        backupState = passkey.backupState
        transports = passkey.transports.split(separator: ",").map(String.init)
        device = PasskeyDevice(platform: passkey.platform, osVersion: passkey.osVersion, deviceName: passkey.deviceName)
        createdAt = ISO8601.string(passkey.createdAt)
        lastUsedAt = passkey.lastUsedAt.map(ISO8601.string)
        suspectedCloneAt = passkey.suspectedCloneAt.map(ISO8601.string)
        suspectedCloneReason = passkey.suspectedCloneReason
    }
}

/// `GET /api/mobile/biometric/devices`: the account's passkeys, and the devices they were made on.
struct DevicesResponse: Content {
    struct Device: Content {
        let platform: String?
        let osVersion: String?
        let deviceName: String?
        let passkeyIds: [String]
    }
    let passkeys: [PasskeyResponse]
    let devices: [Device]
}

/// `GET /api/mobile/biometric/passkeys`.
struct PasskeysResponse: Content {
    let passkeys: [PasskeyResponse]
}

/// `PATCH /api/mobile/biometric/passkeys/{id}`.
struct RenamePasskeyRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["name"]
    let name: String
}
