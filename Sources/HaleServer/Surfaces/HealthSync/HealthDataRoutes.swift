import Vapor

/// A person's rights over their health data: `GET /api/v1/health/export` streams everything Hale holds as one JSON
/// document; `DELETE /api/v1/health/data` deletes it.
struct HealthDataRoutes: RouteCollection {
    let healthDataRights: HealthDataRights
    let provenance: ProvenanceStatements
    let bearerTokens: BearerTokenVerifier

    func boot(routes: any RoutesBuilder) throws {
        let health = SignedInRoutes(
            routes.grouped("api", "v1", "health"), authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        health.get("export", use: export)
        health.delete("data", use: deleteAll)
    }

    func export(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        let account = account.accountId
        let query = try HealthRoutes.rejectQuery(request, allowing: ["provenance"])
        let withProvenance: Bool
        switch try query.single("provenance") {
        case nil, "false": withProvenance = false
        case "true": withProvenance = true
        default: throw InvalidInput("provenance", .oneOf(["true", "false"]))
        }
        let document = HealthExportDocument(
            rights: healthDataRights,
            provenance: withProvenance ? try await provenance.allStatements(of: account) : nil)
        let head = try await document.head(of: account)
        var headers = HTTPHeaders()
        headers.contentType = .json
        headers.replaceOrAdd(name: .contentDisposition, value: #"attachment; filename="health-export.json""#)
        let body = Response.Body(
            managedAsyncStream: { writer in
                try await document.write(head, of: account, envelope: true) {
                    try await writer.writeBuffer(ByteBuffer(data: $0))
                }
            }, count: -1)
        return Response(status: .ok, headers: headers, body: body)
    }

    func deleteAll(_ request: Request, _ account: AuthenticatedAccount) async throws -> HealthDataDeletedResponse {
        let deleted = try await healthDataRights.deleteAll(of: account.accountId)
        return HealthDataDeletedResponse(
            deleted: .init(
                samples: deleted.samples, attestedDailyTotals: deleted.attestedDailyTotals, syncLogs: deleted.syncLogs))
    }
}
