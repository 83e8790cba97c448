import Foundation
import Vapor
import WebAuthn

/// Seed 000 (Pet Wash): passkey registration and sign-in for iOS and Android, and passkey management. With Firebase
/// configured, the app's Firebase ID token is a bearer token here, and passkey sign-in answers a Firebase custom token.
struct MobileBiometricRoutes: RouteCollection {
    let passkeys: Passkeys
    let credentialChanges: CredentialChanges
    let firebase: FirebaseAccounts?
    let bearerTokens: BearerTokenVerifier
    let requestLimits: RequestLimits

    func boot(routes: any RoutesBuilder) throws {
        let biometric = routes.grouped("api", "mobile", "biometric")
            .grouped(FreshSignInWording(code: .requiresRecentLogin))
        // Sign-up and sign-in do work for anyone: budgeted per client before the bearer token is even read.
        let ceremonies = biometric.grouped(requestLimits.perClient(.signInPerIp))
        // A recovery session may add one passkey here, and do nothing else.
        let maybeSignedIn = ceremonies.grouped(
            BearerAuthMiddleware(verifier: bearerTokens, optional: true, firebase: true, recovery: true))
        maybeSignedIn.on(.POST, "register", "options", limit: .form, use: registrationOptions)
        maybeSignedIn.on(.POST, "register", "verify", limit: .passkeyCeremony, use: register)
        ceremonies.on(.POST, "authenticate", "options", limit: .small, use: authenticationOptions)
        ceremonies.on(.POST, "authenticate", "verify", limit: .passkeyCeremony, use: authenticate)
        let signedIn = SignedInRoutes(
            biometric, authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens, firebase: true))
        signedIn.get("devices", use: devices)
        signedIn.get("passkeys", use: list)
        signedIn.on(.PATCH, "passkeys", ":passkeyID", limit: .small, use: rename)
        signedIn.delete("passkeys", ":passkeyID", use: delete)
    }

    /// Signed in: options to add a passkey, which needs a fresh sign-in (`CredentialChanges`). Not signed in: a
    /// passkey-first sign-up, which needs a `displayName`.
    func registrationOptions(_ request: Request) async throws -> CreationOptionsResponse {
        let body = try request.decodeStrict(RegisterOptionsRequest.self)
        if let identity = request.auth.get(AuthenticatedAccount.self) {
            try await credentialChanges.requireToAdd(identity)
            return CreationOptionsResponse(
                options: try await passkeys.registrationOptions(for: identity.accountId, device: body.device))
        }
        guard let displayName = body.displayName else {
            throw HaleError.invalidRequest("Sign in first, or send a displayName to sign up with a passkey.")
        }
        let email = try body.email.map { try AccountEmail($0) }
        return CreationOptionsResponse(
            options: try await passkeys.signUpOptions(displayName: displayName, email: email, device: body.device))
    }

    func register(_ request: Request) async throws -> RegisterVerifyResponse {
        let installation = try Self.installation(request)
        let body = try request.decodeStrict(RegisterVerifyRequest.self)
        let identity = request.auth.get(AuthenticatedAccount.self)
        let register = {
            try await passkeys.register(
                body.credential, account: identity?.accountId, registeredDevice: identity?.deviceId,
                device: body.deviceInfo, installation: installation)
        }
        let registered =
            if let identity { try await credentialChanges.enrol(by: identity, register) } else {
                try await register()
            }
        let tokens = registered.tokens
        return RegisterVerifyResponse(
            passkey: PasskeyResponse(registered.passkey), accountId: registered.passkey.accountId.description,
            token: tokens?.accessToken, refreshToken: tokens?.refreshToken,
            expiresAt: tokens.map { ISO8601.string($0.accessTokenExpiresAt) },
            refreshTokenExpiresAt: tokens.map { ISO8601.string($0.refreshTokenExpiresAt) },
            attestationNonce: tokens?.attestationNonce)
    }

    /// The email, if sent, is checked for form only: sign-in is discoverable, so the answer is the same whether or
    /// not the email has an account, in shape and in the work done.
    func authenticationOptions(_ request: Request) async throws -> RequestOptionsResponse {
        let body = try request.decodeStrict(AuthenticateOptionsRequest.self)
        if let email = body.email {
            _ = try AccountEmail(email)
        }
        let (options, ceremony) = try await passkeys.authenticationOptions()
        return RequestOptionsResponse(options: options, uid: ceremony.description)
    }

    /// With a Firebase service account configured, `token` is a Firebase custom token for the account's uid, and
    /// Hale's access token comes as `accessToken`.
    func authenticate(_ request: Request) async throws -> SignInResponse {
        let installation = try Self.installation(request)
        let body = try request.decodeStrict(AuthenticateVerifyRequest.self)
        guard let ceremony = ServerChallengeID(body.uid) else { throw HaleError.invalidChallenge }
        let (account, tokens) = try await passkeys.authenticate(
            body.credential, ceremony: ceremony, rememberMe: body.rememberMe ?? false,
            installation: installation, logger: request.logger)
        let customToken = try await firebase?.customToken(for: account)
        return SignInResponse(account: account, tokens: tokens, firebaseCustomToken: customToken)
    }

    func devices(_ request: Request, _ account: AuthenticatedAccount) async throws -> DevicesResponse {
        let passkeys = try await self.passkeys.list(for: account.accountId)
        let byDevice = Dictionary(grouping: passkeys) {
            PasskeyDevice(platform: $0.platform, osVersion: $0.osVersion, deviceName: $0.deviceName)
        }
        let devices = byDevice.map { device, passkeys in
            DevicesResponse.Device(
                platform: device.platform, osVersion: device.osVersion, deviceName: device.deviceName,
                passkeyIds: passkeys.map { $0.id.uuidString.lowercased() })
        }.sorted { $0.passkeyIds.first ?? "" < $1.passkeyIds.first ?? "" }
        return DevicesResponse(passkeys: passkeys.map(PasskeyResponse.init), devices: devices)
    }

    func list(_ request: Request, _ account: AuthenticatedAccount) async throws -> PasskeysResponse {
        PasskeysResponse(passkeys: try await passkeys.list(for: account.accountId).map(PasskeyResponse.init))
    }

    func rename(_ request: Request, _ account: AuthenticatedAccount) async throws -> PasskeysResponse {
        let body = try request.decodeStrict(RenamePasskeyRequest.self)
        try await passkeys.rename(try passkeyID(request), of: account.accountId, to: body.name)
        return PasskeysResponse(passkeys: try await passkeys.list(for: account.accountId).map(PasskeyResponse.init))
    }

    /// `?confirm=true` is needed to delete the account's last passkey; a fresh sign-in, always.
    func delete(_ request: Request, _ account: AuthenticatedAccount) async throws -> SuccessResponse {
        let confirmed = try request.query.get(Bool?.self, at: "confirm") ?? false
        try credentialChanges.requireToRemove(account)
        try await passkeys.delete(
            try passkeyID(request), of: account.accountId, confirmed: confirmed, requester: account)
        return SuccessResponse()
    }

    /// The installation the app names in `X-Installation-Id`, checked; the session belongs to its device.
    static func installation(_ request: Request) throws -> String? {
        try SignInDevices.installation(request.headers.first(name: SignInDevices.installationHeader))
    }

    private func passkeyID(_ request: Request) throws -> UUID {
        guard let text = request.parameters.get("passkeyID"), let id = UUID(uuidString: text) else {
            throw HaleError(.resourceNotFound, .notFound, message: "No such passkey on this account.")
        }
        return id
    }
}
