import Vapor

/// A person's rights over their health data: `GET /api/v1/health/export` streams everything Hale holds as one JSON
/// document; `DELETE /api/v1/health/data` deletes it.
struct HealthDataRoutes: RouteCollection {
    /// Samples read and written per step of the stream.
    static let page = 1_000

    func boot(routes: any RoutesBuilder) throws {
        let health = routes.grouped("api", "v1", "health").grouped(BearerAuthMiddleware())
        health.get("export", use: export)
        health.delete("data", use: deleteAll)
    }

    func export(_ request: Request) async throws -> Response {
        let account = try request.account.accountId
        let rights = request.hale.healthDataRights
        let head = try await rights.exportHead(of: account)
        var headers = HTTPHeaders()
        headers.contentType = .json
        headers.replaceOrAdd(name: .contentDisposition, value: #"attachment; filename="health-export.json""#)
        let body = Response.Body(
            managedAsyncStream: { writer in
                try await writer.writeBuffer(ByteBuffer(data: try Self.opening(head, account: account)))
                var cursor: (start: Date, id: UUID)?
                var first = true
                while true {
                    let page = try await rights.exportSamples(of: account, after: cursor, limit: Self.page)
                    var chunk = Data()
                    for sample in page {
                        if !first { chunk.append(UInt8(ascii: ",")) }
                        first = false
                        chunk.append(try JSONEncoder().encode(ExportedSampleResponse(sample)))
                    }
                    if !chunk.isEmpty { try await writer.writeBuffer(ByteBuffer(data: chunk)) }
                    guard page.count == Self.page, let last = page.last else { break }
                    cursor = (last.startAt, last.id)
                }
                try await writer.writeBuffer(ByteBuffer(string: "]}"))
            }, count: -1)
        return Response(status: .ok, headers: headers, body: body)
    }

    func deleteAll(_ request: Request) async throws -> HealthDataDeletedResponse {
        let deleted = try await request.hale.healthDataRights.deleteAll(of: try request.account.accountId)
        return HealthDataDeletedResponse(
            deleted: .init(
                samples: deleted.samples, attestedDailyTotals: deleted.attestedDailyTotals, syncLogs: deleted.syncLogs))
    }

    /// Everything before the samples, ending with `"samples":[`.
    private static func opening(_ head: HealthDataRights.ExportHead, account: AccountID) throws -> Data {
        let encoder = JSONEncoder()
        func json(_ value: some Encodable) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        let dailyTotals = head.dailyTotals.map {
            ExportedDailyTotalResponse(
                date: $0.day.description, type: $0.type, value: $0.all,
                valueExcludingUserEntered: $0.excludingUserEntered)
        }
        let fields = [
            #""success":true"#,
            #""accountId":\#(try json(account.description))"#,
            #""exportedAt":\#(try json(ISO8601.string(head.exportedAt)))"#,
            #""consent":\#(try json(head.consent.map(ConsentGrantResponse.init)))"#,
            #""connections":\#(try json(head.connections.map(HealthConnectionResponse.init)))"#,
            #""dailyTotals":\#(try json(dailyTotals))"#,
            #""attestedDailyTotals":\#(try json(head.attestedDailyTotals.map(ExportedAttestedTotalResponse.init)))"#,
            #""syncLogs":\#(try json(head.syncLogs.map(SyncLogResponse.init)))"#,
        ]
        return Data(("{" + fields.joined(separator: ",") + #","samples":["#).utf8)
    }
}
