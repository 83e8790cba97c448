import Vapor

/// Seed 002's device-bound keys: register a hardware key, sign in by signing a challenge, refresh, and manage
/// devices. Errors use the core shape `{"success": false, "error": {"code", "message"}}` with seed 002's codes.
struct DeviceKeyRoutes: RouteCollection {
    let devices: Devices
    let passkeys: Passkeys
    let sessions: Sessions
    let credentialChanges: CredentialChanges
    let bearerTokens: BearerTokenVerifier
    let requestLimits: RequestLimits
    let clock: HaleClock

    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped("api", "v1")
        let biometric = api.grouped("auth", "biometric")
        biometric.grouped(requestLimits.perClient(.deviceKeysPerIp))
            .on(.POST, "challenge", limit: .small, use: signInChallenge)
        biometric.grouped(requestLimits.perClient(.deviceKeysPerIp)).on(.POST, "verify", limit: .small, use: signIn)
        biometric.grouped(requestLimits.perClient(.refreshPerIp)).on(.POST, "refresh", limit: .small, use: refresh)
        let devicesRoot = api.grouped("devices").grouped(FreshSignInWording(code: .tokenExpired))
        let signedIn = SignedInRoutes(devicesRoot, authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        // A recovery session may enrol one device key here, and do nothing else.
        let registration = SignedInRoutes(
            devicesRoot.grouped("register"),
            authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens, recovery: true)
        )
        .grouped(requestLimits.perClient(.deviceKeysPerIp))
        registration.on(.POST, "challenge", limit: .form, use: registrationChallenge)
        registration.on(.POST, "verify", limit: .small, use: completeRegistration)
        signedIn.get(use: list)
        signedIn.on(.PUT, "push-token", limit: .small, use: setPushToken)
        signedIn.on(.PATCH, ":deviceId", limit: .small, use: rename)
        signedIn.on(.POST, ":deviceId", "deactivate", use: deactivate)
        signedIn.delete(":deviceId", use: delete)
    }

    /// Adding a device key needs a fresh sign-in (`CredentialChanges`), asked before the challenge and again when it
    /// is answered.
    func registrationChallenge(
        _ request: Request, _ account: AuthenticatedAccount
    ) async throws -> DeviceRegistrationChallengeResponse {
        let body = try request.decodeStrict(DeviceRegistrationChallengeRequest.self)
        try await credentialChanges.requireToAdd(account)
        let issued = try await devices.startRegistration(try body.registration(), account: account.accountId)
        return DeviceRegistrationChallengeResponse(
            challenge: issued.challenge, sessionId: issued.sessionId, deviceId: issued.deviceId?.description ?? "",
            expiresAt: ISO8601.string(issued.expiresAt))
    }

    func completeRegistration(
        _ request: Request, _ account: AuthenticatedAccount
    ) async throws -> DeviceRegistrationVerifyResponse {
        let body = try request.decodeStrict(DeviceRegistrationVerifyRequest.self)
        let summary = try await credentialChanges.enrol(by: account) {
            try await devices.completeRegistration(
                sessionId: body.sessionId, signedChallenge: body.signedChallenge, account: account.accountId,
                ip: request.clientIP)
        }
        let device = DeviceResponse(summary, passkeys: [], currentSession: account.sessionId, now: clock.now())
        return DeviceRegistrationVerifyResponse(deviceId: device.id, device: device)
    }

    func signInChallenge(_ request: Request) async throws -> BiometricChallengeResponse {
        let body = try request.decodeStrict(BiometricChallengeRequest.self)
        try requestLimits.admitDeviceSignIn(fingerprint: body.deviceFingerprint, from: request.clientNetwork)
        let issued = try await devices.startSignIn(fingerprint: body.deviceFingerprint)
        return BiometricChallengeResponse(
            challenge: issued.challenge, sessionId: issued.sessionId, expiresAt: ISO8601.string(issued.expiresAt))
    }

    func signIn(_ request: Request) async throws -> BiometricLoginResponse {
        let body = try request.decodeStrict(BiometricLoginRequest.self)
        let pair = try await devices.completeSignIn(
            sessionId: body.sessionId, signedChallenge: body.signedChallenge, rememberMe: body.rememberMe ?? false,
            ip: request.clientIP, logger: request.logger)
        return BiometricLoginResponse(tokens: TokenResponse(pair))
    }

    /// Seed 002's apps store this body as their tokens. A reused token ends the session: `REFRESH_FAILED`.
    func refresh(_ request: Request) async throws -> TokenResponse {
        let body = try request.decodeStrict(RefreshRequest.self)
        do {
            return TokenResponse(
                try await sessions.refresh(
                    body.refreshToken, attestation: try request.refreshAttestation(),
                    unavailable: try request.attestationUnavailable(), logger: request.logger))
        } catch let error as HaleError where error.code == .tokenReused {
            throw HaleError(.refreshFailed, .unauthenticated, message: error.message)
        }
    }

    func list(_ request: Request, _ account: AuthenticatedAccount) async throws -> DeviceListResponse {
        let summaries = try await devices.list(for: account.accountId)
        return DeviceListResponse(devices: try await responses(summaries, for: account))
    }

    func rename(_ request: Request, _ account: AuthenticatedAccount) async throws -> DeviceResponse {
        let body = try request.decodeStrict(DeviceRenameRequest.self)
        let id = try Self.deviceID(request.parameters.get("deviceId"))
        try await devices.rename(id, of: account.accountId, to: body.deviceName)
        let summary = try await devices.find(id, of: account.accountId)
        return try await responses([summary], for: account)[0]
    }

    /// The devices as the signed-in caller sees them, with the passkeys made on each and its own session marked.
    private func responses(_ summaries: [Devices.Summary], for account: AuthenticatedAccount) async throws
        -> [DeviceResponse]
    {
        let passkeys = try await self.passkeys.list(for: account.accountId)
        let now = clock.now()
        return summaries.map { DeviceResponse($0, passkeys: passkeys, currentSession: account.sessionId, now: now) }
    }

    func setPushToken(_ request: Request, _ account: AuthenticatedAccount) async throws -> SuccessResponse {
        let body = try request.decodeStrict(PushTokenRequest.self)
        let token: PushToken
        switch (body.fcmToken, body.apnsToken) {
        case (let fcm?, nil): token = .fcm(try TextRule.pushToken.check(fcm, field: "fcmToken"))
        case (nil, let apns?): token = .apns(try Self.validAPNsToken(apns))
        default: throw HaleError.invalidRequest("Send exactly one of fcmToken and apnsToken.")
        }
        try await devices.setPushToken(
            token, of: try Self.pushTokenDevice(body.deviceId, account), account: account.accountId)
        return SuccessResponse()
    }

    /// The device `deviceId` names, or without one the device the session signed in on, as seed 002's iOS client
    /// (`updateDeviceFCMToken(token:)`) sends no id.
    private static func pushTokenDevice(_ deviceId: String?, _ identity: AuthenticatedAccount) throws -> DeviceID {
        if let deviceId { return try deviceID(deviceId) }
        guard let signedIn = identity.deviceId else {
            throw HaleError.invalidRequest(
                "deviceId is required: this bearer token belongs to no device of its own."
            )
        }
        return signedIn
    }

    func deactivate(_ request: Request, _ account: AuthenticatedAccount) async throws -> DeviceRevocationResponse {
        let id = try Self.deviceID(request.parameters.get("deviceId"))
        try credentialChanges.requireToRemove(account)
        return DeviceRevocationResponse(
            try await devices.deactivate(
                id, of: account.accountId, ip: request.clientIP, requester: account.deviceId,
                includingSyncedPasskeys: try Self.revokeSyncedPasskeys(request)))
    }

    func delete(_ request: Request, _ account: AuthenticatedAccount) async throws -> DeviceRevocationResponse {
        let id = try Self.deviceID(request.parameters.get("deviceId"))
        try credentialChanges.requireToRemove(account)
        return DeviceRevocationResponse(
            try await devices.delete(
                id, of: account.accountId, ip: request.clientIP, requester: account.deviceId,
                includingSyncedPasskeys: try Self.revokeSyncedPasskeys(request)))
    }

    /// `?revokeSyncedPasskeys=true`: delete the synced passkeys registered from the device as well, which live on
    /// the person's other devices too and are kept otherwise.
    private static func revokeSyncedPasskeys(_ request: Request) throws -> Bool {
        switch try QueryParameters(request.url.query).single("revokeSyncedPasskeys") {
        case nil, "false": false
        case "true": true
        default: throw HaleError.invalidRequest("revokeSyncedPasskeys must be true or false")
        }
    }

    /// A device ID that is not a UUID names no device.
    private static func deviceID(_ text: String?) throws -> DeviceID {
        guard let text, let id = DeviceID(text) else { throw HaleError.deviceNotRegistered }
        return id
    }

    /// APNs device tokens are 32 bytes in hex today; Apple says they may grow, so up to 100 bytes are taken. Hale
    /// stores them lowercase.
    private static func validAPNsToken(_ token: String) throws -> String {
        guard (64...200).contains(token.utf8.count), token.utf8.count.isMultiple(of: 2),
            token.utf8.allSatisfy({ UInt8(ascii: "0") <= $0 && $0 <= UInt8(ascii: "9") || Self.hexLetters.contains($0) }
            )
        else {
            throw HaleError.invalidRequest(
                "apnsToken must be the device token in hex: an even number of 64 to 200 characters of 0-9, a-f or A-F.")
        }
        return token.lowercased()
    }

    private static let hexLetters = Set("abcdefABCDEF".utf8)
}
