import Foundation

extension HaleClient {
    /// A verified email address of the account.
    public struct EmailAddress: Decodable, Sendable, Equatable {
        /// The address, lowercased.
        public let email: String
        /// `code`, or the provider that vouched for it: `google`, `apple`, `firebase`.
        public let verifiedBy: String
        /// When, as the server wrote it.
        public let verifiedAt: String
    }

    /// The account's verified email addresses.
    public func emailAddresses() async throws -> [EmailAddress] {
        let list: EmailAddressList = try await send("GET", "api/v1/account/emails", as: .session)
        return list.emails
    }

    /// Mails a 6-digit code that verifies `email` for the account; the server answers alike for every address. Needs
    /// a fresh sign-in (`stepUp(with:)` first when it throws `freshSignInRequired`).
    public func requestEmailCode(for email: String) async throws {
        let _: CodeSent = try await send("POST", "api/v1/account/emails", json: ["email": email], as: .session)
    }

    /// Verifies `email` with the code mailed to it.
    @discardableResult
    public func verifyEmail(_ email: String, code: String) async throws -> EmailAddress {
        try await send("POST", "api/v1/account/emails/verify", json: ["email": email, "code": code], as: .session)
    }

    /// Removes a verified address from the account.
    public func removeEmail(_ email: String) async throws {
        let path =
            "api/v1/account/emails/" + (email.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
        _ = try await send("DELETE", path, json: nil, as: .session)
    }

    struct EmailAddressList: Decodable {
        let emails: [EmailAddress]
    }

    struct CodeSent: Decodable {
        let email: String
        let expiresAt: String
    }
}

extension HaleClient {
    /// What using a recovery code mailed to a verified address did.
    public enum EmailRecovery: Sendable, Equatable {
        /// The client holds a recovery session (the server waits no time): add one passkey or device key, then sign
        /// in with it.
        case recovering(accountId: String)
        /// The recovery waits until `readyAt` while the account's devices and addresses are told and may cancel it,
        /// or approve it sooner with `pairingCode`; then `claimRecovery(id:claimToken:)`. Keep the claim token: it is
        /// shown once.
        case waiting(recoveryId: String, claimToken: String, pairingCode: String, readyAt: String)
    }

    /// A new device's request for a signed-in device of the account to approve a recovery.
    public struct RecoveryApprovalRequest: Decodable, Sendable, Equatable {
        /// The recovery's id.
        public let recoveryId: String
        /// What claims it once approved; shown once.
        public let claimToken: String
        /// The two digits to show the person, who types them on the approving device.
        public let pairingCode: String
        /// When the request lapses unapproved.
        public let expiresAt: String
    }

    /// Asks a signed-in device of the account that verified `email` to approve a recovery: show `pairingCode` to the
    /// person, then `claimRecovery(id:claimToken:)` (it throws the server's `RECOVERY_PENDING` until approved). The
    /// account's devices are pushed an `account.recovery` confirmation, which they approve with
    /// `answer(_:_:signedWith:convention:pairingCode:)`; the account page approves it too.
    public func requestRecoveryApproval(naming email: String) async throws -> RecoveryApprovalRequest {
        try await send("POST", "api/v1/auth/recovery/device", json: ["email": email], as: .none)
    }

    /// Approves a recovery of this account with the pairing code its new device shows. Needs a fresh sign-in
    /// (`stepUp(with:)` first when it throws `freshSignInRequired`).
    public func approveRecovery(id: String, pairingCode: String) async throws {
        _ = try await send(
            "POST", "api/v1/account/recoveries/\(id)/approve", json: ["pairingCode": pairingCode], as: .session)
    }

    /// Mails a recovery code to the account that verified `email`; the server answers alike for every address.
    public func requestRecoveryCode(toEmail email: String) async throws {
        let _: CodeSent = try await send("POST", "api/v1/auth/recovery/email", json: ["email": email], as: .none)
    }

    /// Uses the recovery code mailed to `email`.
    public func recover(withEmail email: String, code: String) async throws -> EmailRecovery {
        let data = try await send(
            "POST", "api/v1/auth/recovery/email/verify", json: ["email": email, "code": code], as: .none)
        if let waiting = try? Self.decoder.decode(WaitingRecovery.self, from: data) {
            return .waiting(
                recoveryId: waiting.recoveryId, claimToken: waiting.claimToken, pairingCode: waiting.pairingCode,
                readyAt: waiting.readyAt)
        }
        let session = try Self.decode(RecoverySession.self, from: data)
        await tokens.set(SessionTokens(accessToken: session.accessToken, refreshToken: nil))
        return .recovering(accountId: session.accountId)
    }

    /// Claims a waiting recovery once it is ready: the client then holds its recovery session. Before then it throws
    /// the server's `RECOVERY_PENDING`, with `Retry-After`.
    @discardableResult
    public func claimRecovery(id: String, claimToken: String) async throws -> String {
        let session: RecoverySession = try await send(
            "POST", "api/v1/auth/recovery/claim", json: ["recoveryId": id, "claimToken": claimToken], as: .none)
        await tokens.set(SessionTokens(accessToken: session.accessToken, refreshToken: nil))
        return session.accountId
    }

    /// Mails a sign-in code to the account that verified `email` (when the server's `email.signIn` is on).
    public func requestSignInCode(toEmail email: String) async throws {
        let _: CodeSent = try await send("POST", "api/v1/auth/email/code", json: ["email": email], as: .none)
    }

    /// Signs in with the code mailed to `email`: an ordinary session, which cannot add or remove credentials without
    /// a step-up. Returns the account's id.
    @discardableResult
    public func signIn(withEmail email: String, code: String, rememberMe: Bool = false) async throws -> String {
        let body = EmailSignInBody(email: email, code: code, rememberMe: rememberMe)
        let signedIn: EmailSignedIn = try await send("POST", "api/v1/auth/email/sign-in", json: body, as: .none)
        await tokens.set(
            SessionTokens(
                accessToken: signedIn.tokens.accessToken, refreshToken: signedIn.tokens.refreshToken,
                attestationNonce: signedIn.tokens.attestationNonce))
        return signedIn.accountId
    }

    /// The account's recoveries waiting to open or be claimed, so a signed-in device can cancel one.
    public func waitingRecoveries() async throws -> [WaitingAccountRecovery] {
        let list: WaitingRecoveryList = try await send("GET", "api/v1/account/recoveries", as: .session)
        return list.recoveries
    }

    /// Cancels a recovery of the account.
    public func cancelRecovery(id: String) async throws {
        _ = try await send("POST", "api/v1/account/recoveries/\(id)/cancel", json: nil, as: .session)
    }

    /// A recovery of the account that has not opened yet, or waits to be claimed.
    public struct WaitingAccountRecovery: Decodable, Sendable, Equatable {
        /// Its id.
        public let id: String
        /// `email` or `operator`.
        public let method: String
        /// When it was started.
        public let requestedAt: String
        /// When it may be claimed.
        public let readyAt: String
    }

    struct WaitingRecoveryList: Decodable {
        let recoveries: [WaitingAccountRecovery]
    }

    struct WaitingRecovery: Decodable {
        let recoveryId: String
        let claimToken: String
        let pairingCode: String
        let readyAt: String
    }

    struct EmailSignInBody: Encodable, Sendable {
        let email: String
        let code: String
        let rememberMe: Bool
    }

    struct EmailSignedIn: Decodable {
        struct Tokens: Decodable {
            let accessToken: String
            let refreshToken: String
            let attestationNonce: String?
        }
        let accountId: String
        let tokens: Tokens
    }
}
