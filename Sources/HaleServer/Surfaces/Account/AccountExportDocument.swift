import Foundation

/// The whole account's export (GDPR art. 20) as one JSON document, written a piece at a time: the account's records
/// first, then its audit events and its health samples page by page, so memory stays bounded however much it holds.
///
/// `GET /api/v1/account/export` streams it; `hale accounts export` writes it to a file.
public struct AccountExportDocument: Sendable {
    /// Audit events read and written per step of the stream.
    static let auditPage = 1_000

    let export: AccountExport
    let health: HealthExportDocument

    /// The export of the accounts that `services` hold.
    public init(_ services: HaleServices) {
        self.init(export: services.accountExport, healthDataRights: services.healthDataRights)
    }

    init(export: AccountExport, healthDataRights: HealthDataRights) {
        self.export = export
        health = HealthExportDocument(rights: healthDataRights)
    }

    /// What is read before the first byte is written, so that a failure there is still an error response.
    struct Prepared: Sendable {
        let account: AccountID
        let records: AccountRecords
        let health: HealthDataRights.ExportHead
    }

    /// Reads the account's records and the head of its health export; nil when there is no such account.
    func prepare(_ account: AccountID) async throws -> Prepared? {
        guard let records = try await export.records(of: account) else { return nil }
        return Prepared(account: account, records: records, health: try await health.head(of: account))
    }

    /// Writes the export of `account` through `write`, a piece at a time. Returns false, having written nothing, when
    /// there is no such account.
    public func write(of account: AccountID, to write: (Data) async throws -> Void) async throws -> Bool {
        guard let prepared = try await prepare(account) else { return false }
        try await self.write(prepared, to: write)
        return true
    }

    /// Writes the document from what `prepare` read.
    func write(_ prepared: Prepared, to write: (Data) async throws -> Void) async throws {
        let account = prepared.account
        try await write(try Self.opening(prepared))
        var after: Int64 = 0
        var first = true
        let encoder = Self.encoder
        while true {
            let page = try await export.auditEvents(of: account, after: after, limit: Self.auditPage)
            var chunk = Data()
            for event in page {
                if !first { chunk.append(UInt8(ascii: ",")) }
                first = false
                chunk.append(try encoder.encode(AuditEventResponse(event)))
            }
            if !chunk.isEmpty { try await write(chunk) }
            guard page.count == Self.auditPage, let last = page.last else { break }
            after = last.sequence
        }
        try await write(Data(#"],"health":"#.utf8))
        try await health.write(prepared.health, of: account, envelope: false, to: write)
        try await write(Data("}".utf8))
    }

    /// Everything before the audit events, ending with `"auditEvents":[`.
    private static func opening(_ prepared: Prepared) throws -> Data {
        let records = prepared.records
        let encoder = Self.encoder
        func json(_ value: some Encodable) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        let fields = [
            #""success":true"#,
            #""accountId":\#(try json(records.profile.id))"#,
            #""exportedAt":\#(try json(prepared.health.exportedAt))"#,
            #""account":\#(try json(records.profile))"#,
            #""passkeyUserHandle":\#(try json(records.passkeyUserHandle))"#,
            #""passkeys":\#(try json(records.passkeys))"#,
            #""devices":\#(try json(records.devices.map { ExportedDeviceResponse($0, keys: records.deviceKeys) }))"#,
            #""appAttestKeys":\#(try json(records.appAttestKeys))"#,
            #""sessions":\#(try json(records.sessions))"#,
            #""personalAccessTokens":\#(try json(records.personalAccessTokens))"#,
            #""socialIdentities":\#(try json(records.socialIdentities))"#,
            #""cleanerProfile":\#(try json(records.cleanerProfile))"#,
            #""services":\#(try json(records.services))"#,
            #""pushRegistrations":\#(try json(records.pushRegistrations))"#,
            #""emailAddresses":\#(try json(records.emailAddresses))"#,
            #""fitnessChallenges":\#(try json(ExportedFitnessChallengesResponse(records)))"#,
            #""confirmations":\#(try json(records.confirmations))"#,
        ]
        return Data(("{" + fields.joined(separator: ",") + #","auditEvents":["#).utf8)
    }

    /// Dates as the documented APIs write them.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(date))
        }
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}
