import Foundation
import HealthSamples

/// The health export's JSON document, written in pieces so that samples stream a page at a time: on its own at
/// `GET /api/v1/health/export`, and as the `health` member of the whole account's export.
struct HealthExportDocument: Sendable {
    /// Samples read and written per step of the stream.
    static let page = 1_000

    let rights: HealthDataRights
    /// With the export's `provenance=true`: the signed statement of every day with attested data, written before
    /// the samples.
    var provenance: [ProvenanceStatements.Signed]? = nil

    /// Reads everything but the samples: done before the first byte is sent, so a failure is still an error response.
    func head(of account: AccountID) async throws -> HealthDataRights.ExportHead {
        try await rights.exportHead(of: account)
    }

    /// Writes the document as one JSON object; with `envelope`, it opens with `success`, `accountId` and
    /// `exportedAt`, as the health export does.
    func write(
        _ head: HealthDataRights.ExportHead, of account: AccountID, envelope: Bool,
        to write: (Data) async throws -> Void
    ) async throws {
        try await write(try Self.opening(head, account: account, envelope: envelope, provenance: provenance))
        var cursor: (start: Date, id: UUID)?
        var first = true
        let encoder = JSONEncoder()
        while true {
            let page = try await rights.exportSamples(of: account, after: cursor, limit: Self.page)
            var chunk = Data()
            for sample in page {
                if !first { chunk.append(UInt8(ascii: ",")) }
                first = false
                chunk.append(try encoder.encode(ExportedHealthSample(sample)))
            }
            if !chunk.isEmpty { try await write(chunk) }
            guard page.count == Self.page, let last = page.last else { break }
            cursor = (last.startAt, last.id)
        }
        try await write(Data("]}".utf8))
    }

    /// Everything before the samples, ending with `"samples":[`.
    private static func opening(
        _ head: HealthDataRights.ExportHead, account: AccountID, envelope: Bool,
        provenance: [ProvenanceStatements.Signed]?
    ) throws -> Data {
        let encoder = JSONEncoder()
        func json(_ value: some Encodable) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        let dailyTotals = head.dailyTotals.map {
            ExportedDailyTotal(
                date: $0.day.description, type: $0.type, value: $0.all,
                valueExcludingUserEntered: $0.excludingUserEntered)
        }
        var fields: [String] = []
        if envelope {
            fields += [
                #""success":true"#,
                #""accountId":\#(try json(account.description))"#,
                #""exportedAt":\#(try json(ISO8601.string(head.exportedAt)))"#,
            ]
        }
        fields += [
            #""consent":\#(try json(head.consent.map(ConsentGrantResponse.init)))"#,
            #""connections":\#(try json(head.connections.map(HealthConnectionResponse.init)))"#,
            #""dailyTotals":\#(try json(dailyTotals))"#,
            #""attestedDailyTotals":\#(try json(head.attestedDailyTotals.map(ExportedAttestedTotalResponse.init)))"#,
            #""syncLogs":\#(try json(head.syncLogs.map(SyncLogResponse.init)))"#,
        ]
        if let provenance {
            let statements = provenance.map {
                ProvenanceResponse.Statement(date: $0.day.description, statement: $0.statement)
            }
            fields.append(#""provenance":\#(try json(statements))"#)
        }
        return Data(("{" + fields.joined(separator: ",") + #","samples":["#).utf8)
    }
}
