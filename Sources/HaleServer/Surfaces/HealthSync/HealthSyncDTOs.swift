import HealthSamples
import Vapor

/// `POST /api/v1/health/sync`.
struct SyncRequest: StrictRequestBody {
    static let allowedFields: Set<String> = [
        "provider", "syncType", "lookbackDays", "batchId", "samples", "deletions",
    ]

    let provider: String?
    let syncType: String?
    let lookbackDays: Int?
    let batchId: String?
    let samples: [Strict<HealthSyncSample>]?
    let deletions: [String]?

    /// The batch, with its provider read by its raw value or an alias and its sync type by name (`manual` when
    /// absent): a name neither has is an `InvalidInput`, the provider's first. The rest the sync checks.
    func batch() throws(InvalidInput) -> HealthSyncBatch {
        let named = try HealthProvider.named(provider)
        let kind = try InvalidInput.parse(syncType ?? "manual", as: HealthSyncLog.SyncType.self, field: "syncType")
        return HealthSyncBatch(
            provider: named, syncType: kind, lookbackDays: lookbackDays, batchId: batchId,
            samples: (samples ?? []).map(\.value), deletions: deletions ?? [])
    }
}

/// Seed 000's `POST /api/mobile/health/sync`.
struct DailySyncRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["platform", "data"]

    struct Totals: Codable, StrictFields {
        static let allowedFields: Set<String> = ["steps", "distance", "date"]

        let steps: Double?
        let distance: Double?
        let date: String?

        /// Refuses totals holding neither steps nor distance.
        func requireATotal() throws(InvalidInput) {
            guard steps != nil || distance != nil else {
                throw InvalidInput("data", .described("data must contain steps, distance or both"))
            }
        }

        /// The day `date` names, and the offset from UTC, in seconds, that its midnight is in: `YYYY-MM-DD` as
        /// Android sends it, midnight in `zone`; or a full timestamp as iOS sends it, read in its written offset or
        /// else in `zone`.
        func day(in zone: TimeZone) throws(InvalidInput) -> (day: LocalDate, offset: Int) {
            guard let date else { throw InvalidInput("date", .required) }
            if let day = LocalDate(date) {
                let noon = Date(timeIntervalSince1970: Double(day.dayNumber * 86_400 + 43_200))
                return (day, zone.secondsFromGMT(for: noon))
            }
            guard let timestamp = ClientTimestamp(date) else {
                throw InvalidInput("date", .form("YYYY-MM-DD or an ISO 8601 time with a zone"))
            }
            let offset = timestamp.writtenOffset ?? zone.secondsFromGMT(for: timestamp.instant)
            // Offsets are within ±18 hours, which a fixed-offset zone always accepts.
            let day = LocalDate(at: timestamp.instant, in: TimeZone(secondsFromGMT: offset) ?? zone)
            return (day, offset)
        }
    }

    let platform: String?
    let data: Strict<Totals>?

    /// The platforms seed 000's apps name.
    static let platforms: [HealthPlatform] = [.apple, .google]

    /// `platform`, one of `platforms`.
    func healthPlatform() throws(InvalidInput) -> HealthPlatform {
        guard let platform = platform.flatMap(HealthPlatform.init(rawValue:)), Self.platforms.contains(platform) else {
            throw InvalidInput("platform", .oneOf(Self.platforms.map(\.rawValue)))
        }
        return platform
    }
}

/// A sample as seed 004's `samples[]` carries it: the fields its clients may send, and no other.
extension HealthSyncSample: StrictFields {
    static let allowedFields: Set<String> = [
        "id", "type", "value", "unit", "startDate", "endDate", "timeZoneOffset", "sourceBundle", "deviceModel",
        "deviceType", "userEntered", "version", "lastModified",
    ]
}

/// A sync log as the API answers it.
struct SyncLogResponse: Content {
    let id: String
    let provider: String
    let syncType: String
    let lookbackDays: Int
    let startedAt: String
    @Nullable var completedAt: String?
    let status: String
    let recordsProcessed: Int
    let recordsInserted: Int
    let recordsUpdated: Int
    let recordsDeduplicated: Int
    let recordsDeleted: Int
    let recordsRejected: Int
    @Nullable var errorMessage: String?

    init(_ log: HealthSyncLog) {
        id = log.id.uuidString.lowercased()
        provider = log.provider
        syncType = log.syncType.rawValue
        lookbackDays = log.lookbackDays
        startedAt = ISO8601.string(log.startedAt)
        completedAt = log.completedAt.map(ISO8601.string)
        status = log.status.rawValue
        recordsProcessed = log.recordsProcessed
        recordsInserted = log.recordsInserted
        recordsUpdated = log.recordsUpdated
        recordsDeduplicated = log.recordsDeduplicated
        recordsDeleted = log.recordsDeleted
        recordsRejected = log.recordsRejected
        errorMessage = log.errorMessage
    }
}

/// A refused sample.
struct RejectionResponse: Content {
    let index: Int
    let code: String
    let message: String
}

/// The answer to a sync: its log, and the log's counters again at the top, where seed 004's `useHealthSync`
/// reads `result.recordsInserted`.
struct SyncResponse: Content {
    var success = true
    let syncLog: SyncLogResponse
    let rejected: [RejectionResponse]
    let replayed: Bool
    let recordsProcessed: Int
    let recordsInserted: Int
    let recordsUpdated: Int
    let recordsDeduplicated: Int
    let recordsDeleted: Int
    let recordsRejected: Int

    init(_ result: HealthSyncResult) {
        syncLog = SyncLogResponse(result.log)
        rejected = result.rejected.map { RejectionResponse(index: $0.index, code: $0.code, message: $0.message) }
        replayed = result.replayed
        recordsProcessed = result.log.recordsProcessed
        recordsInserted = result.log.recordsInserted
        recordsUpdated = result.log.recordsUpdated
        recordsDeduplicated = result.log.recordsDeduplicated
        recordsDeleted = result.log.recordsDeleted
        recordsRejected = result.log.recordsRejected
    }
}

/// The answer to seed 000's daily sync.
struct DailySyncResponse: Content {
    var success = true
    let date: String
    let syncLog: SyncLogResponse
}

/// `GET /api/v1/health/sync-logs`.
struct SyncLogsResponse: Content {
    var success = true
    let syncLogs: [SyncLogResponse]
}
