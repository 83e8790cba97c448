import Foundation
import PostgresNIO
import SQLKit

/// `health_samples` rows read and written column by column. A 10,000-sample batch reads and writes tens of
/// thousands of rows; through `Codable` with snake-case key conversion, converting the keys alone took a quarter of
/// the server's time.
extension StoredHealthSample {
    /// The table's columns, in the order `bindings` writes them.
    static let columns = [
        "id", "account_id", "provider", "platform_id", "type", "value", "start_at", "end_at", "utc_offset_seconds",
        "source_bundle", "device_model", "device_type", "user_entered", "version", "dedup_hash", "created_at",
        "updated_at", "proof_id",
    ]

    /// `columns`, for a `SELECT`.
    static let columnList = columns.joined(separator: ", ")

    /// The columns an update replaces: the content and version, not the identity or creation time.
    static let updatedColumns = [
        "type", "value", "start_at", "end_at", "utc_offset_seconds", "source_bundle", "device_model", "device_type",
        "user_entered", "version", "dedup_hash", "updated_at", "proof_id",
    ]

    /// Reads a row selected with every column.
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decode(column: "id", as: UUID.self),
            accountId: AccountID(try row.decode(column: "account_id", as: UUID.self)),
            provider: try row.decode(column: "provider", as: String.self),
            platformId: try row.decode(column: "platform_id", as: String.self),
            type: try row.decode(column: "type", as: String.self),
            value: try row.decode(column: "value", as: Double.self),
            startAt: try row.decode(column: "start_at", as: Date.self),
            endAt: try row.decode(column: "end_at", as: Date.self),
            utcOffsetSeconds: try row.decode(column: "utc_offset_seconds", as: Int.self),
            sourceBundle: try row.decode(column: "source_bundle", as: String?.self),
            deviceModel: try row.decode(column: "device_model", as: String?.self),
            deviceType: try row.decode(column: "device_type", as: String?.self),
            userEntered: try row.decode(column: "user_entered", as: Bool.self),
            proofId: try row.decode(column: "proof_id", as: UUID?.self),
            version: try row.decode(column: "version", as: Int64?.self),
            dedupHash: try row.decode(column: "dedup_hash", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self))
    }

    /// The values of `columns`, bound.
    var bindings: [any SQLExpression] {
        [
            SQLBind(id), SQLBind(accountId), SQLBind(provider), SQLBind(platformId), SQLBind(type), SQLBind(value),
            SQLBind(startAt), SQLBind(endAt), SQLBind(utcOffsetSeconds), SQLBind(sourceBundle), SQLBind(deviceModel),
            SQLBind(deviceType), SQLBind(userEntered), SQLBind(version), SQLBind(dedupHash), SQLBind(createdAt),
            SQLBind(updatedAt), SQLBind(proofId),
        ]
    }
}

extension StoredHealthSample {
    /// Reads a row of PostgresNIO's selected with `columnList`.
    init(postgresRow row: PostgresRow) throws {
        let (
            id, account, provider, platformId, type, value, start, end, offset, bundle, model, deviceType, userEntered,
            version, dedupHash, created, updated, proofId
        ) = try row.decode(
            (
                UUID, UUID, String, String, String, Double, Date, Date, Int, String?, String?, String?, Bool, Int64?,
                String, Date, Date, UUID?
            ).self)
        self.init(
            id: id, accountId: AccountID(account), provider: provider, platformId: platformId, type: type,
            value: value, startAt: start, endAt: end, utcOffsetSeconds: offset, sourceBundle: bundle,
            deviceModel: model, deviceType: deviceType, userEntered: userEntered, proofId: proofId,
            version: version,
            dedupHash: dedupHash, createdAt: created, updatedAt: updated)
    }

    /// Writes the row, `columns` in order, as a line of `COPY`'s text format.
    func write(to copy: inout PostgresCopyText) {
        copy.uuid(id)
        copy.uuid(accountId.rawValue)
        copy.text(provider)
        copy.text(platformId)
        copy.text(type)
        copy.double(value)
        copy.timestamp(startAt)
        copy.timestamp(endAt)
        copy.integer(utcOffsetSeconds)
        copy.text(sourceBundle)
        copy.text(deviceModel)
        copy.text(deviceType)
        copy.bool(userEntered)
        copy.integer(version)
        copy.text(dedupHash)
        copy.timestamp(createdAt)
        copy.timestamp(updatedAt)
        if let proofId { copy.uuid(proofId) } else { copy.text(nil) }
        copy.endRow()
    }
}

extension SQLQueryFetcher {
    /// Every row, as stored samples.
    func allSamples() async throws -> [StoredHealthSample] {
        try await all().map(StoredHealthSample.init(row:))
    }
}
