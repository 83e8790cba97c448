import Vapor
import WebAuthn

/// `POST /api/v1/auth/refresh`.
struct RefreshRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["refreshToken"]
    let refreshToken: String
}

/// The tokens of a sign-in or refresh, as seed 002's apps store them.
struct TokenResponse: Content {
    let accessToken: String
    let refreshToken: String
    let accessTokenExpiresAt: String
    let refreshTokenExpiresAt: String
    /// With `tokens.bindToAttestation` on: what the next refresh's App Attest assertion is made over.
    let attestationNonce: String?

    init(_ pair: TokenPair) {
        accessToken = pair.accessToken
        refreshToken = pair.refreshToken
        accessTokenExpiresAt = ISO8601.string(pair.accessTokenExpiresAt)
        refreshTokenExpiresAt = ISO8601.string(pair.refreshTokenExpiresAt)
        attestationNonce = pair.attestationNonce
    }
}

/// `{"success": true}`.
struct SuccessResponse: Content {
    var success = true
}

/// `GET /api/v1/account`.
struct AccountResponse: Content {
    let id: String
    let email: String?
    let role: String
    let createdAt: String

    init(_ account: Account) {
        id = account.id.description
        email = account.email
        role = account.role
        createdAt = ISO8601.string(account.createdAt)
    }
}

/// `POST /api/v1/auth/handoff`.
struct HandoffResponse: Content {
    let code: String
    let expiresAt: String
}

/// `POST /api/v1/auth/handoff/redeem`.
struct HandoffRedeemRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["code"]
    let code: String
}

/// An access token without a refresh token.
struct AccessTokenResponse: Content {
    let accessToken: String
    let accessTokenExpiresAt: String
}

/// `POST /api/v1/auth/step-up/options` (and the account page's): passkey request options for a step-up.
struct StepUpOptionsResponse: Content {
    let options: RequestOptions
    let ceremony: String
}

/// `POST /api/v1/auth/step-up`: the assertion one of the account's passkeys made for the ceremony.
struct StepUpRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["ceremony", "credential"]
    let ceremony: String
    let credential: AuthenticationResponseJSON
}

/// `POST /api/v1/auth/step-up/device/challenge`.
struct StepUpDeviceChallenge: Content {
    let challenge: String
    let expiresAt: String
}

/// `POST /api/v1/auth/step-up/device`: the challenge and the device key's signature over it, as seed 002 signs.
struct StepUpDeviceSignature: StrictRequestBody {
    static let allowedFields: Set<String> = ["challenge", "signedChallenge"]
    let challenge: String
    let signedChallenge: String
}

/// The answer to a step-up: until when the session counts as a fresh sign-in.
struct StepUpResponse: Content {
    var success = true
    let freshUntil: String
}

/// `POST /api/v1/auth/logout-all`, and the account page's sign-out-everywhere: optionally, the credentials added in
/// the last hours go too (1 to 720).
struct SignOutEverywhereRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["removeCredentialsAddedWithinHours"]
    let removeCredentialsAddedWithinHours: Int?

    /// The body, if the request has one; nil without one.
    static func read(_ request: Request) throws -> Duration? {
        guard let body = request.body.data, body.readableBytes > 0 else { return nil }
        guard let hours = try request.decodeStrict(Self.self).removeCredentialsAddedWithinHours else { return nil }
        guard (1...720).contains(hours) else {
            throw HaleError.invalidRequest("removeCredentialsAddedWithinHours must be between 1 and 720")
        }
        return .seconds(hours * 3600)
    }
}
