import DeviceKeys
import Vapor

/// Confirmation requests: created and read by the app's backend under `/api/v1/admin/confirmations` with an admin
/// API key; read and answered by the account's device under `/api/v1/confirmations`.
struct ConfirmationRoutes: RouteCollection {
    let confirmations: Confirmations
    let adminKeys: AdminAPIKeys
    let bearerTokens: BearerTokenVerifier
    let requestLimits: RequestLimits
    let clock: HaleClock

    func boot(routes: any RoutesBuilder) throws {
        let admin = routes.grouped("api", "v1", "admin", "confirmations").grouped(AdminKeyMiddleware(keys: adminKeys))
        admin.post(use: create)
        admin.get(":confirmationID", use: adminShow)
        let device = SignedInRoutes(
            routes.grouped("api", "v1", "confirmations"), authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        device.get(use: pending)
        device.get(":confirmationID", use: show)
        device.grouped(requestLimits.perAccount(.confirmationAnswersPerAccount))
            .on(.POST, ":confirmationID", "answer", limit: .small, use: answer)
    }

    func create(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(CreateConfirmationRequest.self)
        let confirmation = try await confirmations.create(try body.draft(), by: try request.adminKey.id)
        return Response.json(envelope(confirmation), status: .created)
    }

    func adminShow(_ request: Request) async throws -> ConfirmationEnvelope {
        envelope(try await confirmations.find(try Self.id(request)))
    }

    func pending(_ request: Request, _ account: AuthenticatedAccount) async throws -> ConfirmationsResponse {
        let confirmations = try await self.confirmations.pending(of: account.accountId)
        let now = clock.now()
        return ConfirmationsResponse(confirmations: confirmations.map { ConfirmationResponse($0, at: now) })
    }

    func show(_ request: Request, _ account: AuthenticatedAccount) async throws -> ConfirmationEnvelope {
        envelope(try await confirmations.find(try Self.id(request), of: account.accountId))
    }

    func answer(_ request: Request, _ account: AuthenticatedAccount) async throws -> ConfirmationEnvelope {
        let body = try request.decodeStrict(AnswerConfirmationRequest.self)
        guard let decision = body.decision.flatMap(ConfirmationMessage.Decision.init(rawValue:)) else {
            throw HaleError.invalidRequest("decision must be \"approve\" or \"deny\".")
        }
        let longest = DevicePublicKey.maximumSignatureTextLength
        guard let signature = body.signature, (1...longest).contains(signature.utf8.count) else {
            throw HaleError.invalidRequest(
                "signature must be 1 to \(longest) bytes: the device key's signature, base64.")
        }
        if let claimed = body.deviceId, claimed.lowercased() != account.deviceId?.description {
            throw HaleError.confirmationWrongDevice
        }
        let confirmation = try await confirmations.answer(
            try Self.id(request), decision: decision, signature: signature, pairingCode: body.pairingCode,
            account: account.accountId, device: account.deviceId)
        return envelope(confirmation)
    }

    private func envelope(_ confirmation: Confirmation) -> ConfirmationEnvelope {
        ConfirmationEnvelope(confirmation: ConfirmationResponse(confirmation, at: clock.now()))
    }

    /// A malformed id is the same 404 as an unknown one.
    private static func id(_ request: Request) throws -> ConfirmationID {
        guard let text = request.parameters.get("confirmationID"), let id = ConfirmationID(text) else {
            throw HaleError.confirmationNotFound
        }
        return id
    }
}
