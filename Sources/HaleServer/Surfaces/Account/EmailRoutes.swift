import Vapor

/// The account's verified email addresses (`EmailAddresses`): listed with any token; asked for, verified and removed
/// only with a fresh sign-in, since an address is a way into the account.
struct EmailRoutes: RouteCollection {
    let emailAddresses: EmailAddresses
    let credentialChanges: CredentialChanges
    let bearerTokens: BearerTokenVerifier
    let requestLimits: RequestLimits

    func boot(routes: any RoutesBuilder) throws {
        let emails = SignedInRoutes(
            routes.grouped("api", "v1", "account", "emails"),
            authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        emails.get(use: list)
        emails.grouped(requestLimits.perClient(.emailCodesPerIp)).on(.POST, limit: .small, use: requestCode)
        emails.on(.POST, "verify", limit: .small, use: verify)
        emails.delete(":email", use: remove)
    }

    func list(_ request: Request, _ account: AuthenticatedAccount) async throws -> EmailAddressList {
        let addresses = try await emailAddresses.list(of: account.accountId)
        return EmailAddressList(emails: addresses.map(EmailAddressResponse.init))
    }

    /// 202 whatever the address: a code, or for another account's address a notice, is on its way.
    func requestCode(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        try await credentialChanges.requireToAdd(account)
        let body = try request.decodeStrict(EmailCodeRequest.self)
        let sent = try await emailAddresses.requestCode(
            for: try EmailAddress.parse(body.email), account: account.accountId)
        return try await EmailCodeSentResponse(email: sent.address, expiresAt: ISO8601.string(sent.expiresAt))
            .encodeResponse(status: .accepted, for: request)
    }

    func verify(_ request: Request, _ account: AuthenticatedAccount) async throws -> EmailAddressResponse {
        try await credentialChanges.requireToAdd(account)
        let body = try request.decodeStrict(EmailVerifyRequest.self)
        let verified = try await emailAddresses.verify(
            try EmailAddress.parse(body.email), code: body.code, by: Self.subject(account, request))
        return EmailAddressResponse(verified)
    }

    func remove(_ request: Request, _ account: AuthenticatedAccount) async throws -> HTTPStatus {
        try credentialChanges.requireToRemove(account)
        let address = try EmailAddress.parse(try request.parameters.require("email"))
        try await emailAddresses.remove(address, by: Self.subject(account, request))
        return .noContent
    }

    static func subject(_ identity: AuthenticatedAccount, _ request: Request) -> AuditTrail.Subject {
        AuditTrail.Subject(
            account: identity.accountId, device: identity.deviceId, session: identity.sessionId,
            ipRange: request.clientIP.flatMap(IPRange.of))
    }
}

/// `GET /api/v1/account/emails`.
struct EmailAddressList: Content {
    let emails: [EmailAddressResponse]
}

/// One verified address.
struct EmailAddressResponse: Content {
    let email: String
    let verifiedBy: String
    let verifiedAt: String

    init(_ address: VerifiedEmail) {
        email = address.address
        verifiedBy = address.verifiedBy
        verifiedAt = ISO8601.string(address.verifiedAt)
    }
}

/// `POST /api/v1/account/emails`.
struct EmailCodeRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["email"]
    let email: String
}

/// `POST /api/v1/account/emails`'s 202: the same for every address.
struct EmailCodeSentResponse: Content {
    let email: String
    let expiresAt: String
}

/// `POST /api/v1/account/emails/verify`.
struct EmailVerifyRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["email", "code"]
    let email: String
    let code: String
}
