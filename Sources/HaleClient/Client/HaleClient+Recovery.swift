import Foundation

/// Recovery codes: the way back in when every device is lost.
extension HaleClient {
    /// Makes the account's ten recovery codes, replacing any before, and returns them: the only time they are seen,
    /// so show them to the person to keep apart from their devices. Needs a fresh sign-in (else
    /// `HaleClientError.freshSignInRequired`: `stepUp(with:)`, then retry).
    public func createRecoveryCodes() async throws -> [String] {
        let created: CreatedCodes = try await send(
            "POST", "api/v1/account/recovery-codes", json: EmptyBody(), as: .session)
        return created.codes
    }

    /// How many of the account's recovery codes are left unused.
    public func remainingRecoveryCodes() async throws -> Int {
        let status: CodesStatus = try await send("GET", "api/v1/account/recovery-codes", as: .session)
        return status.remaining
    }

    /// Uses a recovery code, once. The client then holds a recovery session, which can do one thing: add one passkey
    /// (`addPasskey(with:device:)`) or one device key (`registerDevice(_:_:)`); then sign in with the new credential.
    /// Returns the recovered account's id.
    @discardableResult
    public func recover(withCode code: String) async throws -> String {
        let session: RecoverySession = try await send(
            "POST", "api/v1/auth/recovery", json: ["code": code], as: .none)
        await tokens.set(SessionTokens(accessToken: session.accessToken, refreshToken: nil))
        return session.accountId
    }

    struct CreatedCodes: Decodable {
        let codes: [String]
    }

    struct CodesStatus: Decodable {
        let remaining: Int
    }

    struct RecoverySession: Decodable {
        let accessToken: String
        let accountId: String
    }
}
