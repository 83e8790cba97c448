import Foundation
import Vapor

/// The page's email: its addresses, sign-in by email code, recovery by email (the browser that starts it holds the
/// claim in a cookie and claims it once the wait is over), and the account's waiting recoveries, to cancel.
extension AccountPageRoutes {
    func emailRoutes(signedOut api: any RoutesBuilder, signedIn: any RoutesBuilder) {
        let codes = api.grouped(ClientRateLimit(.emailCodesPerIp))
        let attempts = api.grouped(ClientRateLimit(.signInPerIp))
        codes.on(
            .POST, "recover", "email", limit: .small, use: EmailRecoveryRoutes(signInEnabled: true).requestRecoveryCode)
        attempts.on(.POST, "recover", "email", "verify", limit: .small, use: recoverByEmail)
        attempts.on(.POST, "recover", "claim", limit: .small, use: claimRecovery)
        attempts.on(.POST, "recover", "device", limit: .small, use: askADevice)
        api.get("recover", "waiting", use: waitingRecovery)
        api.delete("recover", "claim", use: forgetRecovery)
        codes.on(.POST, "sign-in", "email", "code", limit: .small, use: requestSignInCode)
        attempts.on(.POST, "sign-in", "email", limit: .small, use: signInByEmail)

        let emails = EmailRoutes()
        signedIn.get("emails", use: emails.list)
        signedIn.grouped(ClientRateLimit(.emailCodesPerIp)).on(.POST, "emails", limit: .small, use: emails.requestCode)
        signedIn.on(.POST, "emails", "verify", limit: .small, use: emails.verify)
        signedIn.delete("emails", ":email", use: emails.remove)
        let recoveries = EmailRecoveryRoutes(signInEnabled: true)
        signedIn.get("recoveries", use: recoveries.waiting)
        signedIn.post("recoveries", ":recoveryId", "cancel", use: recoveries.cancel)
        signedIn.on(.POST, "recoveries", ":recoveryId", "approve", limit: .small, use: recoveries.approve)
    }

    /// With no wait configured, the browser holds the recovery session at once; otherwise the waiting recovery's
    /// claim, in a cookie, and the page says when to come back.
    func recoverByEmail(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(EmailVerifyRequest.self)
        let started = try await request.hale.accountRecoveries.verify(
            body.email, code: body.code, ipRange: EmailRecoveryRoutes.ipRange(request))
        switch started {
        case .open(_, let tokens):
            return try await opened(tokens.sessionId, on: Response(), for: request)
        case .waiting(let recovery, let claimToken):
            return try holding(recovery, claimToken: claimToken, for: request)
        }
    }

    /// Asks a signed-in device of the account to approve: the browser holds the claim, and shows the pairing code.
    func askADevice(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(EmailCodeRequest.self)
        let (recovery, claimToken) = try await request.hale.accountRecoveries.requestApproval(
            naming: body.email, ipRange: EmailRecoveryRoutes.ipRange(request))
        return try holding(recovery, claimToken: claimToken, for: request)
    }

    /// 202 with what the page shows of a waiting recovery; its claim in the browser's cookie.
    private func holding(_ recovery: AccountRecoveryRecord, claimToken: String, for request: Request) throws
        -> Response
    {
        let response = Response(status: .accepted)
        let lifetime = max(1, Int(recovery.expiresAt.timeIntervalSince(request.hale.clock.now())))
        AccountPageCookies.setRecovery(
            "\(recovery.id.uuidString.lowercased()).\(claimToken)", maxAge: lifetime, on: response, for: request)
        let shown = WaitingRecoveryResponse(recovery, claimToken: claimToken)
        try response.content.encode(
            AccountPageWaitingRecovery(
                pairingCode: shown.pairingCode, readyAt: shown.readyAt, expiresAt: shown.expiresAt))
        return response
    }

    /// Whether this browser holds a recovery's claim: the page then offers to continue it.
    func waitingRecovery(_ request: Request) async throws -> AccountPageClaim {
        AccountPageClaim(held: Self.claim(of: request) != nil)
    }

    /// Claims the recovery this browser started: its recovery session, as the page's cookie.
    func claimRecovery(_ request: Request) async throws -> Response {
        guard let (id, token) = Self.claim(of: request) else { throw AccountRecoveries.invalid }
        let (_, tokens) = try await request.hale.accountRecoveries.claim(
            id, token: token, ipRange: EmailRecoveryRoutes.ipRange(request))
        let response = Response()
        AccountPageCookies.clearRecovery(on: response, for: request)
        return try await opened(tokens.sessionId, on: response, for: request)
    }

    /// Forgets the claim this browser holds: the page asks once the recovery was cancelled or lapsed.
    func forgetRecovery(_ request: Request) async throws -> Response {
        let response = Response(status: .noContent)
        AccountPageCookies.clearRecovery(on: response, for: request)
        return response
    }

    func requestSignInCode(_ request: Request) async throws -> Response {
        guard request.hale.configuration.email.signIn else { throw Self.emailSignInOff }
        return try await EmailRecoveryRoutes(signInEnabled: true).requestSignInCode(request)
    }

    func signInByEmail(_ request: Request) async throws -> Response {
        guard request.hale.configuration.email.signIn else { throw Self.emailSignInOff }
        let body = try request.decodeStrict(EmailSignInRequest.self)
        let (_, tokens) = try await request.hale.emailSignIn.signIn(
            body.email, code: body.code, rememberMe: false, ipRange: EmailRecoveryRoutes.ipRange(request))
        return try await opened(tokens.sessionId, on: Response(), for: request)
    }

    static let emailSignInOff = HaleError(.notFound, status: 404, message: "Signing in by email code is off.")

    /// The recovery id and claim token the browser's cookie holds.
    static func claim(of request: Request) -> (UUID, String)? {
        guard let value = request.cookies[AccountPageCookies.recovery]?.string, value.utf8.count <= 128 else {
            return nil
        }
        let parts = value.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let id = UUID(uuidString: String(parts[0])) else { return nil }
        return (id, String(parts[1]))
    }
}

/// What the page shows of the recovery this browser started: the code a device approving it types, and when it
/// opens without one (absent when it waits for a device).
struct AccountPageWaitingRecovery: Content {
    let pairingCode: String
    let readyAt: String?
    let expiresAt: String
}

/// `GET /account/api/recover/waiting`.
struct AccountPageClaim: Content {
    let held: Bool
}
