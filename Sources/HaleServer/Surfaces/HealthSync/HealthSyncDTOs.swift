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

    var batch: HealthSyncBatch {
        HealthSyncBatch(
            provider: provider, syncType: syncType, lookbackDays: lookbackDays, batchId: batchId,
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
    }

    let platform: String?
    let data: Strict<Totals>?
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
