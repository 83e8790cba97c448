import Vapor

/// Seed 002's device-bound keys: register a hardware key, sign in by signing a challenge, refresh, and manage
/// devices. Errors use the core shape `{"success": false, "error": {"code", "message"}}` with seed 002's codes.
struct DeviceKeyRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped("api", "v1")
        let biometric = api.grouped("auth", "biometric")
        biometric.grouped(ClientRateLimit(.deviceKeysPerIp)).on(.POST, "challenge", limit: .small, use: signInChallenge)
        biometric.grouped(ClientRateLimit(.deviceKeysPerIp)).on(.POST, "verify", limit: .small, use: signIn)
        biometric.grouped(ClientRateLimit(.refreshPerIp)).on(.POST, "refresh", limit: .small, use: refresh)
        let devicesRoot = api.grouped("devices").grouped(FreshSignInWording(code: .tokenExpired))
        let devices = devicesRoot.grouped(BearerAuthMiddleware())
        // A recovery session may enrol one device key here, and do nothing else.
        let registration = devicesRoot.grouped("register").grouped(BearerAuthMiddleware(recovery: true))
            .grouped(ClientRateLimit(.deviceKeysPerIp))
        registration.on(.POST, "challenge", limit: .form, use: registrationChallenge)
        registration.on(.POST, "verify", limit: .small, use: completeRegistration)
        devices.get(use: list)
        devices.on(.PUT, "push-token", limit: .small, use: setPushToken)
        devices.on(.PATCH, ":deviceId", limit: .small, use: rename)
        devices.post(":deviceId", "deactivate", use: deactivate)
        devices.delete(":deviceId", use: delete)
    }

    /// Adding a device key needs a fresh sign-in (`CredentialChanges`), asked before the challenge and again when it
    /// is answered.
    func registrationChallenge(_ request: Request) async throws -> DeviceRegistrationChallengeResponse {
        let body = try request.decodeStrict(DeviceRegistrationChallengeRequest.self)
        let identity = try request.account
        try await request.hale.credentialChanges.requireToAdd(identity)
        let issued = try await request.hale.devices.startRegistration(
            DeviceRegistrationRequest(
                deviceName: body.deviceName, deviceType: body.deviceType, deviceFingerprint: body.deviceFingerprint,
                publicKey: body.publicKey, keyAlgorithm: body.keyAlgorithm),
            account: identity.accountId)
        return DeviceRegistrationChallengeResponse(
            challenge: issued.challenge, sessionId: issued.sessionId, deviceId: issued.deviceId?.description ?? "",
            expiresAt: ISO8601.string(issued.expiresAt))
    }

    func completeRegistration(_ request: Request) async throws -> DeviceRegistrationVerifyResponse {
        let body = try request.decodeStrict(DeviceRegistrationVerifyRequest.self)
        let identity = try request.account
        let summary = try await request.hale.credentialChanges.enrol(by: identity) {
            try await request.hale.devices.completeRegistration(
                sessionId: body.sessionId, signedChallenge: body.signedChallenge, account: identity.accountId,
                ip: request.clientIP)
        }
        let device = DeviceResponse(
            summary, passkeys: [], currentSession: identity.sessionId, now: request.hale.clock.now())
        return DeviceRegistrationVerifyResponse(deviceId: device.id, device: device)
    }

    func signInChallenge(_ request: Request) async throws -> BiometricChallengeResponse {
        let body = try request.decodeStrict(BiometricChallengeRequest.self)
        try request.hale.requestLimits.admitDeviceSignIn(
            fingerprint: body.deviceFingerprint, from: request.clientNetwork)
        let issued = try await request.hale.devices.startSignIn(fingerprint: body.deviceFingerprint)
        return BiometricChallengeResponse(
            challenge: issued.challenge, sessionId: issued.sessionId, expiresAt: ISO8601.string(issued.expiresAt))
    }

    func signIn(_ request: Request) async throws -> BiometricLoginResponse {
        let body = try request.decodeStrict(BiometricLoginRequest.self)
        let pair = try await request.hale.devices.completeSignIn(
            sessionId: body.sessionId, signedChallenge: body.signedChallenge, rememberMe: body.rememberMe ?? false,
            ip: request.clientIP, logger: request.logger)
        return BiometricLoginResponse(tokens: TokenResponse(pair))
    }

    /// Seed 002's apps store this body as their tokens. A reused token ends the session: `REFRESH_FAILED`.
    func refresh(_ request: Request) async throws -> TokenResponse {
        let body = try request.decodeStrict(RefreshRequest.self)
        do {
            return TokenResponse(try await request.hale.sessions.refresh(body.refreshToken, logger: request.logger))
        } catch let error as HaleError where error.code == .tokenReused {
            throw HaleError(.refreshFailed, status: 401, message: error.message)
        }
    }

    func list(_ request: Request) async throws -> DeviceListResponse {
        let summaries = try await request.hale.devices.list(for: try request.account.accountId)
        return DeviceListResponse(devices: try await Self.responses(summaries, for: request))
    }

    func rename(_ request: Request) async throws -> DeviceResponse {
        let body = try request.decodeStrict(DeviceRenameRequest.self)
        let identity = try request.account
        let id = try Self.deviceID(request.parameters.get("deviceId"))
        try await request.hale.devices.rename(id, of: identity.accountId, to: body.deviceName)
        let summary = try await request.hale.devices.find(id, of: identity.accountId)
        return try await Self.responses([summary], for: request)[0]
    }

    /// The devices as the signed-in caller sees them, with the passkeys made on each and its own session marked.
    private static func responses(_ summaries: [Devices.Summary], for request: Request) async throws
        -> [DeviceResponse]
    {
        let identity = try request.account
        let passkeys = try await request.hale.passkeys.list(for: identity.accountId)
        let now = request.hale.clock.now()
        return summaries.map { DeviceResponse($0, passkeys: passkeys, currentSession: identity.sessionId, now: now) }
    }

    func setPushToken(_ request: Request) async throws -> SuccessResponse {
        let body = try request.decodeStrict(PushTokenRequest.self)
        let token: PushToken
        switch (body.fcmToken, body.apnsToken) {
        case (let fcm?, nil): token = .fcm(try TextRule.pushToken.check(fcm, field: "fcmToken"))
        case (nil, let apns?): token = .apns(try Self.validAPNsToken(apns))
        default: throw HaleError.invalidRequest("Send exactly one of fcmToken and apnsToken.")
        }
        let identity = try request.account
        try await request.hale.devices.setPushToken(
            token, of: try Self.pushTokenDevice(body.deviceId, identity), account: identity.accountId)
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

    func deactivate(_ request: Request) async throws -> DeviceRevocationResponse {
        let id = try Self.deviceID(request.parameters.get("deviceId"))
        let identity = try request.account
        try request.hale.credentialChanges.requireToRemove(identity)
        return DeviceRevocationResponse(
            try await request.hale.devices.deactivate(
                id, of: identity.accountId, ip: request.clientIP, requester: identity.deviceId,
                includingSyncedPasskeys: try Self.revokeSyncedPasskeys(request)))
    }

    func delete(_ request: Request) async throws -> DeviceRevocationResponse {
        let id = try Self.deviceID(request.parameters.get("deviceId"))
        let identity = try request.account
        try request.hale.credentialChanges.requireToRemove(identity)
        return DeviceRevocationResponse(
            try await request.hale.devices.delete(
                id, of: identity.accountId, ip: request.clientIP, requester: identity.deviceId,
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
