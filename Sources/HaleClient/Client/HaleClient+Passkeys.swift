import Foundation
import WebAuthn

/// Seed 000's passkeys: a passkey-first sign-up, adding a passkey, signing in with one, and managing them.
extension HaleClient {
    /// Signs up with a new passkey for a new account, and signs that account in.
    @discardableResult
    public func signUp(
        displayName: String, email: String? = nil, with authenticator: some PasskeyAuthenticator,
        device: PasskeyDevice? = nil
    ) async throws -> PasskeyRegistration {
        let registered = try await registerPasskey(
            with: authenticator, RegisterOptionsBody(device: device, displayName: displayName, email: email),
            device: device, as: .none)
        guard let token = registered.token, let refreshToken = registered.refreshToken else {
            throw HaleClientError.unexpectedResponse(status: 200)
        }
        await tokens.set(
            SessionTokens(accessToken: token, refreshToken: refreshToken, attestationNonce: registered.attestationNonce)
        )
        return registered
    }

    /// Adds a passkey to the signed-in account.
    @discardableResult
    public func addPasskey(with authenticator: some PasskeyAuthenticator, device: PasskeyDevice? = nil)
        async throws -> Passkey
    {
        try await registerPasskey(
            with: authenticator, RegisterOptionsBody(device: device, displayName: nil, email: nil), device: device,
            as: .session
        ).passkey
    }

    /// One registration ceremony: options for `body`, the authenticator's answer, and its verification.
    private func registerPasskey(
        with authenticator: some PasskeyAuthenticator, _ body: RegisterOptionsBody, device: PasskeyDevice?,
        as credential: Credential
    ) async throws -> PasskeyRegistration {
        let options: Options<CreationOptions> = try await send(
            "POST", "api/mobile/biometric/register/options", json: body, as: credential)
        let response = try await authenticator.register(options.options)
        return try await send(
            "POST", "api/mobile/biometric/register/verify",
            json: RegisterVerifyBody(credential: response, deviceInfo: device), as: credential)
    }

    /// Signs in with a discoverable passkey; the client keeps the session's tokens. Against a server that mints
    /// Firebase custom tokens, the Hale access token is the answer's `accessToken`, and that is what it keeps.
    @discardableResult
    public func signIn(with authenticator: some PasskeyAuthenticator, rememberMe: Bool = false) async throws
        -> SessionTokens
    {
        try await passkeySignIn(with: authenticator, rememberMe: rememberMe).tokens
    }

    /// Signs in with a discoverable passkey as `signIn(with:rememberMe:)` does, and returns the Firebase custom token
    /// the server minted for the account's Firebase user (seed 000 with `firebase.serviceAccount` set), for the app's
    /// `Auth.auth().signIn(withCustomToken:)`; nil when the server mints none.
    public func signInForFirebase(with authenticator: some PasskeyAuthenticator, rememberMe: Bool = false)
        async throws -> String?
    {
        try await passkeySignIn(with: authenticator, rememberMe: rememberMe).firebaseCustomToken
    }

    /// One sign-in ceremony; the client keeps Hale's tokens.
    private func passkeySignIn(with authenticator: some PasskeyAuthenticator, rememberMe: Bool) async throws
        -> (tokens: SessionTokens, firebaseCustomToken: String?)
    {
        let options: RequestOptionsAnswer = try await send(
            "POST", "api/mobile/biometric/authenticate/options", json: EmptyBody(), as: .none)
        let credential = try await authenticator.authenticate(options.options)
        let signedIn: PasskeySignIn = try await send(
            "POST", "api/mobile/biometric/authenticate/verify",
            json: AuthenticateBody(credential: credential, uid: options.uid, rememberMe: rememberMe), as: .none)
        let tokens = SessionTokens(
            accessToken: signedIn.accessToken ?? signedIn.token, refreshToken: signedIn.refreshToken,
            attestationNonce: signedIn.attestationNonce)
        await self.tokens.set(tokens)
        return (tokens, signedIn.accessToken == nil ? nil : signedIn.token)
    }

    /// Proves with one of the account's passkeys that the person is there, on the current session: for
    /// `tokens.freshSignInWindow` from now it counts as a fresh sign-in, so an operation that threw
    /// `HaleClientError.freshSignInRequired` (adding or removing a passkey or a device, signing out everywhere,
    /// deleting the account) can be retried without signing in again. Returns until when the session is fresh.
    @discardableResult
    public func stepUp(with authenticator: some PasskeyAuthenticator) async throws -> Date {
        let options: StepUpOptions = try await send(
            "POST", "api/v1/auth/step-up/options", json: EmptyBody(), as: .session)
        let credential = try await authenticator.authenticate(options.options)
        let answer: StepUpAnswer = try await send(
            "POST", "api/v1/auth/step-up", json: StepUpBody(ceremony: options.ceremony, credential: credential),
            as: .session)
        return answer.freshUntil
    }

    struct StepUpOptions: Decodable {
        let options: RequestOptions
        let ceremony: String
    }

    struct StepUpBody: Encodable {
        let ceremony: String
        let credential: AuthenticationResponseJSON
    }

    struct StepUpAnswer: Decodable {
        let freshUntil: Date
    }

    /// The signed-in account's passkeys.
    public func passkeys() async throws -> [Passkey] {
        let list: PasskeyList = try await send("GET", "api/mobile/biometric/passkeys", as: .session)
        return list.passkeys
    }

    /// The devices the account's passkeys were made on, each with the ids of its passkeys.
    public func passkeyDevices() async throws -> [PasskeyDeviceGroup] {
        let answer: PasskeyDevicesAnswer = try await send("GET", "api/mobile/biometric/devices", as: .session)
        return answer.devices
    }

    /// Renames a passkey; returns the account's passkeys.
    @discardableResult
    public func renamePasskey(_ id: String, to name: String) async throws -> [Passkey] {
        let list: PasskeyList = try await send(
            "PATCH", "api/mobile/biometric/passkeys/\(id)", json: ["name": name], as: .session)
        return list.passkeys
    }

    /// Deletes a passkey; deleting the account's last one needs `confirmLast`.
    public func deletePasskey(_ id: String, confirmLast: Bool = false) async throws {
        _ = try await send(
            "DELETE", "api/mobile/biometric/passkeys/\(id)",
            query: confirmLast ? [URLQueryItem(name: "confirm", value: "true")] : [], json: nil, as: .session)
    }

    struct Options<Value: Decodable>: Decodable {
        let options: Value
    }

    struct RequestOptionsAnswer: Decodable {
        let options: RequestOptions
        let uid: String
    }

    /// `token` is Hale's access token, or with Firebase a custom token, Hale's then being `accessToken`.
    struct PasskeySignIn: Decodable {
        let token: String
        let accessToken: String?
        let refreshToken: String
        let attestationNonce: String?
    }

    struct PasskeyDevicesAnswer: Decodable {
        let devices: [PasskeyDeviceGroup]
    }

    struct PasskeyList: Decodable {
        let passkeys: [Passkey]
    }

    private struct RegisterOptionsBody: Encodable, Sendable {
        let platform: String?
        let osVersion: String?
        let deviceName: String?
        let displayName: String?
        let email: String?

        init(device: PasskeyDevice?, displayName: String?, email: String?) {
            platform = device?.platform
            osVersion = device?.osVersion
            deviceName = device?.deviceName
            self.displayName = displayName
            self.email = email
        }
    }

    private struct RegisterVerifyBody: Encodable, Sendable {
        let credential: RegistrationResponseJSON
        let deviceInfo: PasskeyDevice?
    }

    private struct AuthenticateBody: Encodable, Sendable {
        let credential: AuthenticationResponseJSON
        let uid: String
        let rememberMe: Bool
    }
}

/// `{}`.
struct EmptyBody: Encodable, Sendable {}
