import Foundation

/// Seed 002's device-bound keys: register a key, sign in by signing a challenge, refresh.
extension HaleClient {
    /// What the app sends about the device.
    public struct DeviceDescription: Sendable {
        /// The name shown in the device list.
        public var name: String
        /// The app's fingerprint of the installation, as seed 002's clients build it.
        public var fingerprint: String
        /// How the key signs: as the iOS or the Android client does.
        public var convention: DeviceSigningConvention

        /// A description.
        public init(name: String, fingerprint: String, convention: DeviceSigningConvention) {
            self.name = name
            self.fingerprint = fingerprint
            self.convention = convention
        }
    }

    struct Challenge: Decodable {
        let challenge: String
        let sessionId: String
        let deviceId: String?
    }

    struct SignedIn: Decodable {
        let tokens: Tokens
    }

    struct Tokens: Decodable {
        let accessToken: String
        let refreshToken: String
        let attestationNonce: String?

        var session: SessionTokens {
            SessionTokens(accessToken: accessToken, refreshToken: refreshToken, attestationNonce: attestationNonce)
        }
    }

    /// Registers `key` for the signed-in account, or for the account `bearer` signs in as (a personal access token
    /// or an access token); returns the device's id.
    public func registerDevice(_ key: some DeviceKeySigner, _ device: DeviceDescription, bearer: String? = nil)
        async throws -> String
    {
        let credential: Credential = bearer.map { .bearer($0) } ?? .session
        let issued: Challenge = try await send(
            "POST", "api/v1/devices/register/challenge",
            json: [
                "deviceName": device.name, "deviceType": "mobile", "deviceFingerprint": device.fingerprint,
                "publicKey": key.publicKeyPEM, "keyAlgorithm": "ES256",
            ], as: credential)
        let signature = try await key.sign(challenge: issued.challenge, convention: device.convention)
        _ = try await send(
            "POST", "api/v1/devices/register/verify",
            json: ["sessionId": issued.sessionId, "signedChallenge": signature], as: credential)
        guard let id = issued.deviceId else { throw HaleClientError.unexpectedResponse(status: 200) }
        return id
    }

    /// Signs in with the device key: the client keeps the session's tokens and refreshes them as needed.
    @discardableResult
    public func signIn(with key: some DeviceKeySigner, _ device: DeviceDescription, rememberMe: Bool = false)
        async throws -> SessionTokens
    {
        let issued: Challenge = try await send(
            "POST", "api/v1/auth/biometric/challenge", json: ["deviceFingerprint": device.fingerprint], as: .none)
        let signature = try await key.sign(challenge: issued.challenge, convention: device.convention)
        let signedIn: SignedIn = try await send(
            "POST", "api/v1/auth/biometric/verify",
            json: SignInBody(sessionId: issued.sessionId, signedChallenge: signature, rememberMe: rememberMe),
            as: .none)
        let tokens = signedIn.tokens.session
        await self.tokens.set(tokens)
        return tokens
    }

    /// Refreshes the session now, single-flight with any refresh already running.
    @discardableResult
    public func refreshSession() async throws -> SessionTokens {
        guard let access = await tokens.tokens?.accessToken else { throw HaleClientError.notSignedIn }
        return try await tokens.refreshed(replacing: access) { try await self.refresh($0) }
    }

    /// One refresh request; the caller stores what it returns. When the server gave a nonce and this installation
    /// registered an App Attest key, the refresh is asserted by that key over the nonce and the body, as a session
    /// bound to it must be.
    func refresh(_ current: SessionTokens) async throws -> SessionTokens {
        guard let refreshToken = current.refreshToken else { throw HaleClientError.notSignedIn }
        let body = try JSONEncoder().encode(["refreshToken": refreshToken])
        var headers: [String: String] = [:]
        if let nonce = current.attestationNonce, let attestation = await appInstance.attestation {
            headers = try await attestation.headers(nonce: nonce, body: body)
        }
        let fresh: Tokens = try Self.decode(
            Tokens.self,
            from: try await send(
                "POST", "api/v1/auth/biometric/refresh", headers: headers, encodedJSON: body, as: .none))
        return fresh.session
    }

    private struct SignInBody: Encodable, Sendable {
        let sessionId: String
        let signedChallenge: String
        let rememberMe: Bool
    }
}

extension HaleClient {
    /// Proves the person is there with this device's key, on the session it signed in with: the session then counts
    /// as a fresh sign-in until the returned date, so a change refused with `freshSignInRequired` can be retried.
    @discardableResult
    public func stepUp(with key: some DeviceKeySigner, _ device: DeviceDescription) async throws -> Date {
        let issued: DeviceStepUpChallenge = try await send(
            "POST", "api/v1/auth/step-up/device/challenge", json: EmptyBody(), as: .session)
        let signature = try await key.sign(challenge: issued.challenge, convention: device.convention)
        let answer: StepUpAnswer = try await send(
            "POST", "api/v1/auth/step-up/device",
            json: ["challenge": issued.challenge, "signedChallenge": signature], as: .session)
        return answer.freshUntil
    }

    struct DeviceStepUpChallenge: Decodable {
        let challenge: String
    }
}
