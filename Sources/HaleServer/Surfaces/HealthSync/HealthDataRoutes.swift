import Vapor

/// A person's rights over their health data: `GET /api/v1/health/export` streams everything Hale holds as one JSON
/// document; `DELETE /api/v1/health/data` deletes it.
struct HealthDataRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let health = routes.grouped("api", "v1", "health").grouped(BearerAuthMiddleware())
        health.get("export", use: export)
        health.delete("data", use: deleteAll)
    }

    func export(_ request: Request) async throws -> Response {
        let account = try request.account.accountId
        let document = HealthExportDocument(rights: request.hale.healthDataRights)
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

    func deleteAll(_ request: Request) async throws -> HealthDataDeletedResponse {
        let deleted = try await request.hale.healthDataRights.deleteAll(of: try request.account.accountId)
        return HealthDataDeletedResponse(
            deleted: .init(
                samples: deleted.samples, attestedDailyTotals: deleted.attestedDailyTotals, syncLogs: deleted.syncLogs))
    }
}
