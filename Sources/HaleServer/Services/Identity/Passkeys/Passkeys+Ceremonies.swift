import ByteEncoding
import Foundation
import Logging
import WebAuthn

extension Passkeys {
    static let authenticationFailed = HaleError(
        .passkeyAuthenticationFailed, .unauthenticated, message: "The passkey could not be verified.")
    static let notFound = HaleError(.resourceNotFound, .notFound, message: "No such passkey on this account.")

    func creationOptions(
        user: CreationOptions.UserEntity, excluding: [CredentialDescriptor], binding: ChallengeBinding,
        pending: PendingRegistration
    ) async throws -> CreationOptions {
        let bytes = Array(OpaqueToken.randomBytes(32))
        _ = try await challenges.issue(
            kind: Self.registrationKind, binding: binding, lifetime: Self.ceremonyLifetime,
            context: try ChallengeContext.encode(pending),
            value: Base64URL.encode(bytes))
        let verification: UserVerificationRequirement = requireUserVerification ? .required : .preferred
        return relyingParty.creationOptions(
            challenge: bytes, user: user, excluding: excluding, residentKey: .required, userVerification: verification)
    }

    /// A 409 when an account that has `count` passkeys may not have another: checked when the options are asked
    /// for, and again before the passkey is stored, since several ceremonies may be open at once.
    func requireRoom(besides count: Int) throws {
        guard count < maximumPerAccount else {
            throw HaleError.limitReached(
                "This account has \(count) passkeys, the most it may have (\(maximumPerAccount)); delete one to add another."
            )
        }
    }

    /// Consumes the registration ceremony the response answers; a signed-in caller may only answer its own.
    func consumeRegistration(_ response: RegistrationResponseJSON, account: AccountID?) async throws
        -> ([UInt8], PendingRegistration)
    {
        guard let (text, bytes) = SignedChallenge.value(inClientData: response.response.clientDataJSON) else {
            throw Self.registrationError(WebAuthnError(.malformedClientData, "clientDataJSON is not valid client data"))
        }
        let challenge = try await challenges.consumeOrInvalid(
            kind: Self.registrationKind, value: text, binding: ChallengeBinding(accountId: account))
        let pending = try ChallengeContext.decode(PendingRegistration.self, from: challenge.context)
        guard (pending.signUp == nil) == (challenge.accountId != nil) else { throw HaleError.invalidChallenge }
        return (bytes, pending)
    }

    /// The account a verified passkey belongs to: the signed-in one, or a new one for a sign-up.
    func owner(for pending: PendingRegistration, signedIn account: AccountID?) async throws -> AccountID {
        if let account { return account }
        guard let signUp = pending.signUp else { throw HaleError.invalidChallenge }
        let created = try await accounts.create(
            email: nil, role: "user", unverifiedEmail: try signUp.email.map { try AccountEmail($0) })
        try await repository.setUserHandle(pending.userHandle, of: created.id)
        return created.id
    }

    func store(
        _ verified: VerifiedRegistration, for account: AccountID, device: PasskeyDevice?, registeredDevice: DeviceID?,
        audit: AuditAppend?
    ) async throws
        -> PasskeyCredential
    {
        let passkey = PasskeyCredential(
            id: UUID(), accountId: account, credentialId: Base64URL.encode(verified.credentialID),
            publicKey: Base64URL.encode(verified.publicKey), signCount: Int64(verified.signCount),
            aaguid: verified.aaguid, attestationFormat: verified.format,
            transports: verified.transports.joined(separator: ","), backupEligible: verified.backupEligible,
            backupState: verified.backupState, name: Self.defaultName(for: device), platform: device?.platform,
            osVersion: device?.osVersion, deviceName: device?.deviceName, deviceId: registeredDevice,
            createdAt: clock.now(), lastUsedAt: nil)
        try await repository.insert(passkey, audit: audit)
        return passkey
    }

    func userHandle(of account: AccountID) async throws -> [UInt8] {
        if let existing = try await repository.userHandle(of: account), let bytes = Base64URL.decode(existing) {
            return Array(bytes)
        }
        let handle = Array(OpaqueToken.randomBytes(32))
        try await repository.setUserHandle(Base64URL.encode(handle), of: account)
        return handle
    }

    /// A returned user handle must be the passkey's account's; absent is fine (§7.2 step 6).
    func checkUserHandle(_ response: AuthenticationResponseJSON, belongsTo account: AccountID) async throws {
        guard let handle = response.response.userHandle, !handle.isEmpty else { return }
        guard let bytes = Base64URL.decode(handle),
            try await repository.account(forUserHandle: Base64URL.encode(bytes)) == account
        else {
            throw Self.authenticationFailed
        }
    }

    func verifyAssertion(
        _ response: AuthenticationResponseJSON, passkey: PasskeyCredential, challenge: [UInt8], logger: Logger
    ) throws -> VerifiedAuthentication {
        let stored = StoredCredential(
            id: Array(Base64URL.decode(passkey.credentialId) ?? Data()),
            publicKey: Array(Base64URL.decode(passkey.publicKey) ?? Data()), signCount: UInt32(passkey.signCount),
            backupEligible: passkey.backupEligible)
        do {
            return try AuthenticationVerifier(relyingParty: relyingParty).verify(
                response, expectedChallenge: challenge, credential: stored,
                requireUserVerification: requireUserVerification, cloneSignals: .report)
        } catch {
            logger.info("passkey sign-in refused", metadata: ["reason": "\(error.code)", "passkey": "\(passkey.id)"])
            throw Self.authenticationFailed
        }
    }

    /// A registration failure names its reason: the caller is the credential's owner, setting it up.
    static func registrationError(_ error: WebAuthnError) -> HaleError {
        HaleError(HaleError.Code(rawValue: error.code.rawValue), .invalidInput, message: error.message)
    }

    /// The credential ID in canonical base64url, whatever padding the client used.
    static func canonical(_ id: String) -> String {
        Base64URL.decode(id).map { Base64URL.encode($0) } ?? id
    }

    /// The device's name, which `PasskeyDevice.checked` keeps to a passkey name's rule, else "Passkey".
    static func defaultName(for device: PasskeyDevice?) -> String {
        device?.deviceName ?? "Passkey"
    }

    static func validatedName(_ name: String, field: String) throws -> String {
        try TextRule.name.checkTrimmed(name, field: field)
    }
}
