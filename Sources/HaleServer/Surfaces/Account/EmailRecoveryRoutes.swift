import Vapor

/// Recovery by email and sign-in by email code (`AccountRecoveries`, `EmailSignIn`): codes asked for without a
/// token, answered alike for every address; and the account's waiting recoveries, listed and cancelled by any of its
/// signed-in devices.
struct EmailRecoveryRoutes: RouteCollection {
    let signInEnabled: Bool
    let accountRecoveries: AccountRecoveries
    let emailSignIn: EmailSignIn
    let credentialChanges: CredentialChanges
    let bearerTokens: BearerTokenVerifier
    let requestLimits: RequestLimits

    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped("api", "v1")
        let codes = api.grouped(requestLimits.perClient(.emailCodesPerIp))
        let attempts = api.grouped(requestLimits.perClient(.signInPerIp))
        codes.on(.POST, "auth", "recovery", "email", limit: .small, use: requestRecoveryCode)
        attempts.on(.POST, "auth", "recovery", "email", "verify", limit: .small, use: verifyRecoveryCode)
        attempts.on(.POST, "auth", "recovery", "claim", limit: .small, use: claim)
        attempts.on(.POST, "auth", "recovery", "device", limit: .small, use: requestApproval)
        if signInEnabled {
            codes.on(.POST, "auth", "email", "code", limit: .small, use: requestSignInCode)
            attempts.on(.POST, "auth", "email", "sign-in", limit: .small, use: signIn)
        }
        let recoveries = SignedInRoutes(
            api.grouped("account", "recoveries"), authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        recoveries.get(use: waiting)
        recoveries.on(.POST, ":recoveryId", "cancel", use: cancel)
        recoveries.on(.POST, ":recoveryId", "approve", limit: .small, use: approve)
    }

    func requestRecoveryCode(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(EmailCodeRequest.self)
        let sent = try await accountRecoveries.requestCode(for: try EmailAddress.parse(body.email))
        return try await EmailCodeSentResponse(email: sent.address, expiresAt: ISO8601.string(sent.expiresAt))
            .encodeResponse(status: .accepted, for: request)
    }

    /// 200 with a recovery session when `recovery.emailDelay` is zero; else 202 with the waiting recovery.
    func verifyRecoveryCode(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(EmailVerifyRequest.self)
        switch try await accountRecoveries.verify(
            try EmailAddress.parse(body.email), code: body.code, ipRange: Self.ipRange(request))
        {
        case .open(let account, let tokens):
            return try await RecoverySessionResponse(account, tokens).encodeResponse(for: request)
        case .waiting(let recovery, let claimToken):
            return try await WaitingRecoveryResponse(recovery, claimToken: claimToken)
                .encodeResponse(status: .accepted, for: request)
        }
    }

    /// 202 whatever the address: a request for a signed-in device of the account to approve.
    func requestApproval(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(EmailCodeRequest.self)
        let (recovery, claimToken) = try await accountRecoveries.requestApproval(
            naming: try EmailAddress.parse(body.email), ipRange: Self.ipRange(request))
        return try await WaitingRecoveryResponse(recovery, claimToken: claimToken)
            .encodeResponse(status: .accepted, for: request)
    }

    /// A signed-in device approves, with a fresh sign-in, as adding a credential needs: the recovery adds one.
    func approve(_ request: Request, _ account: AuthenticatedAccount) async throws -> HTTPStatus {
        try credentialChanges.requireToRemove(account)
        let body = try request.decodeStrict(RecoveryApproval.self)
        guard let id = UUID(uuidString: try request.parameters.require("recoveryId")) else {
            throw HaleError(.resourceNotFound, .notFound, message: "This account has no such recovery waiting.")
        }
        try await accountRecoveries.approve(
            id, pairingCode: body.pairingCode, by: EmailRoutes.subject(account, request))
        return .noContent
    }

    func claim(_ request: Request) async throws -> RecoverySessionResponse {
        let body = try request.decodeStrict(RecoveryClaimRequest.self)
        guard let id = UUID(uuidString: body.recoveryId) else {
            throw HaleError.invalidRequest("recoveryId must be a recovery's id")
        }
        try OpaqueToken.checkPresented(body.claimToken, field: "claimToken")
        let (account, tokens) = try await accountRecoveries.claim(
            id, token: body.claimToken, ipRange: Self.ipRange(request))
        return RecoverySessionResponse(account, tokens)
    }

    func requestSignInCode(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(EmailCodeRequest.self)
        let sent = try await emailSignIn.requestCode(for: try EmailAddress.parse(body.email))
        return try await EmailCodeSentResponse(email: sent.address, expiresAt: ISO8601.string(sent.expiresAt))
            .encodeResponse(status: .accepted, for: request)
    }

    func signIn(_ request: Request) async throws -> EmailSignInResponse {
        let body = try request.decodeStrict(EmailSignInRequest.self)
        let (account, tokens) = try await emailSignIn.signIn(
            try EmailAddress.parse(body.email), code: body.code, rememberMe: body.rememberMe ?? false,
            ipRange: Self.ipRange(request))
        return EmailSignInResponse(accountId: account.description, tokens: TokenResponse(tokens))
    }

    func waiting(_ request: Request, _ account: AuthenticatedAccount) async throws -> WaitingRecoveryList {
        let recoveries = try await accountRecoveries.waiting(of: account.accountId)
        return WaitingRecoveryList(recoveries: recoveries.map(WaitingRecoverySummary.init))
    }

    func cancel(_ request: Request, _ account: AuthenticatedAccount) async throws -> HTTPStatus {
        guard let id = UUID(uuidString: try request.parameters.require("recoveryId")) else {
            throw HaleError(.resourceNotFound, .notFound, message: "This account has no such recovery waiting.")
        }
        try await accountRecoveries.cancel(id, by: EmailRoutes.subject(account, request))
        return .noContent
    }

    static func ipRange(_ request: Request) -> String? {
        request.clientIP.flatMap(IPRange.of)
    }
}

/// A started recovery that waits: its starter claims it with the token, and a device approving it types the
/// pairing code.
struct WaitingRecoveryResponse: Content {
    let recoveryId: String
    let claimToken: String
    let pairingCode: String
    /// When it opens without an approval; absent for a new device's request, which opens only when approved.
    let readyAt: String?
    /// When it lapses unclaimed.
    let expiresAt: String

    init(_ recovery: AccountRecoveryRecord, claimToken: String) {
        recoveryId = recovery.id.uuidString.lowercased()
        self.claimToken = claimToken
        pairingCode = recovery.pairingCode
        readyAt = recovery.method == "device" ? nil : ISO8601.string(recovery.readyAt)
        expiresAt = ISO8601.string(recovery.expiresAt)
    }
}

/// `POST /api/v1/account/recoveries/{id}/approve`.
struct RecoveryApproval: StrictRequestBody {
    static let allowedFields: Set<String> = ["pairingCode"]
    let pairingCode: String
}

/// `POST /api/v1/auth/recovery/claim`.
struct RecoveryClaimRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["recoveryId", "claimToken"]
    let recoveryId: String
    let claimToken: String
}

/// `POST /api/v1/auth/email/sign-in`.
struct EmailSignInRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["email", "code", "rememberMe"]
    let email: String
    let code: String
    let rememberMe: Bool?
}

/// `POST /api/v1/auth/email/sign-in`'s answer.
struct EmailSignInResponse: Content {
    let accountId: String
    let tokens: TokenResponse
}

/// `GET /api/v1/account/recoveries`.
struct WaitingRecoveryList: Content {
    let recoveries: [WaitingRecoverySummary]
}

/// A waiting recovery, as the account's devices see it.
struct WaitingRecoverySummary: Content {
    let id: String
    let method: String
    let requestedAt: String
    let readyAt: String

    init(_ recovery: AccountRecoveryRecord) {
        id = recovery.id.uuidString.lowercased()
        method = recovery.method
        requestedAt = ISO8601.string(recovery.requestedAt)
        readyAt = ISO8601.string(recovery.readyAt)
    }
}
