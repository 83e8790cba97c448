import Foundation
import Vapor

/// The page's email: its addresses, sign-in by email code, recovery by email (the browser that starts it holds the
/// claim in a cookie and claims it once the wait is over), and the account's waiting recoveries, to cancel.
extension AccountPageRoutes {
    func registerEmailRoutes(signedOut api: any RoutesBuilder, signedIn: SignedInRoutes) {
        let codes = api.grouped(requestLimits.perClient(.emailCodesPerIp))
        let attempts = api.grouped(requestLimits.perClient(.signInPerIp))
        codes.on(.POST, "recover", "email", limit: .small, use: emailRecoveryRoutes.requestRecoveryCode)
        attempts.on(.POST, "recover", "email", "verify", limit: .small, use: recoverByEmail)
        attempts.on(.POST, "recover", "claim", limit: .small, use: claimRecovery)
        attempts.on(.POST, "recover", "device", limit: .small, use: askADevice)
        api.get("recover", "waiting", use: waitingRecovery)
        api.delete("recover", "claim", use: forgetRecovery)
        codes.on(.POST, "sign-in", "email", "code", limit: .small, use: requestSignInCode)
        attempts.on(.POST, "sign-in", "email", limit: .small, use: signInByEmail)

        signedIn.get("emails", use: emailRoutes.list)
        signedIn.grouped(requestLimits.perClient(.emailCodesPerIp)).on(
            .POST, "emails", limit: .small, use: emailRoutes.requestCode)
        signedIn.on(.POST, "emails", "verify", limit: .small, use: emailRoutes.verify)
        signedIn.delete("emails", ":email", use: emailRoutes.remove)
        signedIn.get("recoveries", use: emailRecoveryRoutes.waiting)
        signedIn.on(.POST, "recoveries", ":recoveryId", "cancel", use: emailRecoveryRoutes.cancel)
        signedIn.on(.POST, "recoveries", ":recoveryId", "approve", limit: .small, use: emailRecoveryRoutes.approve)
    }

    /// With no wait configured, the browser holds the recovery session at once; otherwise the waiting recovery's
    /// claim, in a cookie, and the page says when to come back.
    func recoverByEmail(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(EmailVerifyRequest.self)
        let started = try await accountRecoveries.verify(
            try EmailAddress.parse(body.email), code: body.code, ipRange: EmailRecoveryRoutes.ipRange(request))
        switch started {
        case .open(_, let tokens):
            return try await opened(tokens.sessionId, on: Response())
        case .waiting(let recovery, let claimToken):
            return try holding(recovery, claimToken: claimToken)
        }
    }

    /// Asks a signed-in device of the account to approve: the browser holds the claim, and shows the pairing code.
    func askADevice(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(EmailCodeRequest.self)
        let (recovery, claimToken) = try await accountRecoveries.requestApproval(
            naming: try EmailAddress.parse(body.email), ipRange: EmailRecoveryRoutes.ipRange(request))
        return try holding(recovery, claimToken: claimToken)
    }

    /// 202 with what the page shows of a waiting recovery; its claim in the browser's cookie.
    private func holding(_ recovery: AccountRecoveryRecord, claimToken: String) throws -> Response {
        let response = Response(status: .accepted)
        let lifetime = max(1, Int(recovery.expiresAt.timeIntervalSince(clock.now())))
        cookies.setRecovery("\(recovery.id.uuidString.lowercased()).\(claimToken)", maxAge: lifetime, on: response)
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
        let (_, tokens) = try await accountRecoveries.claim(
            id, token: token, ipRange: EmailRecoveryRoutes.ipRange(request))
        let response = Response()
        cookies.clearRecovery(on: response)
        return try await opened(tokens.sessionId, on: response)
    }

    /// Forgets the claim this browser holds: the page asks once the recovery was cancelled or lapsed.
    func forgetRecovery(_ request: Request) async throws -> Response {
        let response = Response(status: .noContent)
        cookies.clearRecovery(on: response)
        return response
    }

    func requestSignInCode(_ request: Request) async throws -> Response {
        guard emailSignInEnabled else { throw Self.emailSignInOff }
        return try await emailRecoveryRoutes.requestSignInCode(request)
    }

    func signInByEmail(_ request: Request) async throws -> Response {
        guard emailSignInEnabled else { throw Self.emailSignInOff }
        let body = try request.decodeStrict(EmailSignInRequest.self)
        let (_, tokens) = try await emailSignIn.signIn(
            try EmailAddress.parse(body.email), code: body.code, rememberMe: false,
            ipRange: EmailRecoveryRoutes.ipRange(request))
        return try await opened(tokens.sessionId, on: Response())
    }

    static let emailSignInOff = HaleError(.notFound, .notFound, message: "Signing in by email code is off.")

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
