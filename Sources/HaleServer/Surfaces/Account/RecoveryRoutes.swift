import Vapor

/// Recovery codes: made with a fresh sign-in, counted, and used without one to open a recovery session that can only
/// enrol one passkey or device key (`RecoveryCodes`).
struct RecoveryRoutes: RouteCollection {
    let recoveryCodes: RecoveryCodes
    let credentialChanges: CredentialChanges
    let bearerTokens: BearerTokenVerifier
    let requestLimits: RequestLimits

    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped("api", "v1")
        let codes = SignedInRoutes(
            api.grouped("account", "recovery-codes"), authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        codes.get(use: remaining)
        codes.on(.POST, use: generate)
        api.grouped(requestLimits.perClient(.signInPerIp)).on(.POST, "auth", "recovery", limit: .small, use: recover)
    }

    func remaining(_ request: Request, _ account: AuthenticatedAccount) async throws -> RecoveryCodesStatus {
        RecoveryCodesStatus(remaining: try await recoveryCodes.remaining(of: account.accountId))
    }

    /// New codes, replacing the old: they are a way into the account, so this needs a fresh sign-in.
    func generate(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        try credentialChanges.requireToRemove(account)
        let codes = try await recoveryCodes.generate(for: account.accountId, session: account.sessionId)
        return try await RecoveryCodesCreated(codes: codes, remaining: codes.count)
            .encodeResponse(status: .created, for: request)
    }

    func recover(_ request: Request) async throws -> RecoverySessionResponse {
        let body = try request.decodeStrict(RecoveryRequest.self)
        let (account, pair) = try await recoveryCodes.redeem(
            body.code, ipRange: request.clientIP.flatMap(IPRange.of))
        return RecoverySessionResponse(account, pair)
    }
}

/// `GET /api/v1/account/recovery-codes`.
struct RecoveryCodesStatus: Content {
    let remaining: Int
}

/// `POST /api/v1/account/recovery-codes`: the codes, shown this once.
struct RecoveryCodesCreated: Content {
    let codes: [String]
    let remaining: Int
}

/// `POST /api/v1/auth/recovery`.
struct RecoveryRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["code"]
    let code: String
}

/// A recovery session's access token: no refresh token, and good only for enrolling one credential.
struct RecoverySessionResponse: Content {
    let accessToken: String
    let accessTokenExpiresAt: String
    let accountId: String

    init(_ account: AccountID, _ tokens: TokenPair) {
        accessToken = tokens.accessToken
        accessTokenExpiresAt = ISO8601.string(tokens.accessTokenExpiresAt)
        accountId = account.description
    }
}
