import Foundation
import Vapor

/// `POST /health/development-attestation`, registered only in development attestation mode: certifies the SDK's key
/// as an intermediate App Attest CA under this installation's development root. Seed 001's error shape.
struct DevelopmentAttestationRoutes: RouteCollection {
    let developmentAttestation: DevelopmentAttestation
    let bearerTokens: BearerTokenVerifier
    let requestLimits: RequestLimits

    func boot(routes: any RoutesBuilder) throws {
        SignedInRoutes(routes.grouped("health"), authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
            .grouped(requestLimits.perAccount(.attestationPerAccount))
            .on(.POST, "development-attestation", limit: .form, use: issue)
    }

    func issue(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        try HealthRoutes.rejectQuery(request, allowing: [])
        let body = try DevelopmentAttestationBody.read(try HealthRoutes.json(of: request))
        let credential = try await developmentAttestation.credential(for: body.publicKey)
        request.logger.info(
            "development attestation credential issued", metadata: ["account": "\(account.accountId)"])
        return Response.json(DevelopmentAttestationResponse(credential), status: .created)
    }
}

/// The credential: base64 DER certificates, the app id to attest as and the environment whose AAGUID to write.
struct DevelopmentAttestationResponse: Content {
    let certificate: String
    let rootCertificate: String
    let appId: String
    let environment: String
    let expiresAt: String

    init(_ credential: DevelopmentAttestation.Credential) {
        certificate = Data(credential.certificate).base64EncodedString()
        rootCertificate = Data(credential.rootCertificate).base64EncodedString()
        appId = credential.appID
        environment = credential.environment.rawValue
        expiresAt = ISO8601.string(credential.expiresAt)
    }
}
