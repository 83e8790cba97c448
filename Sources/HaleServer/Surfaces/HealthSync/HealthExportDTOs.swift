import HealthSamples
import Vapor

extension ExportedHealthSample {
    /// A stored sample as the export writes it.
    init(_ sample: StoredHealthSample) {
        self.init(
            id: sample.platformId, provider: sample.provider, type: sample.type, value: sample.value,
            unit: HealthSampleType(rawValue: sample.type)?.canonicalUnit.rawValue ?? "",
            startDate: ISO8601.string(sample.startAt), endDate: ISO8601.string(sample.endAt),
            utcOffsetSeconds: sample.utcOffsetSeconds, sourceBundle: sample.sourceBundle,
            deviceModel: sample.deviceModel, deviceType: sample.deviceType, userEntered: sample.userEntered,
            version: sample.version, createdAt: ISO8601.string(sample.createdAt),
            updatedAt: ISO8601.string(sample.updatedAt))
    }
}

/// One of seed 001's attested day totals in an export.
struct ExportedAttestedTotalResponse: Encodable {
    let id: String
    let date: String
    let source: String
    let platform: String
    let steps: Int64
    let duration: Int64
    let calories: Double
    let distance: Double
    let createdAt: String
    let updatedAt: String

    init(_ total: HealthDailyTotal) {
        id = total.id.uuidString.lowercased()
        date = total.day.description
        source = total.source
        platform = total.platform
        steps = total.totals.steps
        duration = total.totals.duration
        calories = total.totals.calories
        distance = total.totals.distance
        createdAt = ISO8601.string(total.createdAt)
        updatedAt = ISO8601.string(total.updatedAt)
    }
}

/// `DELETE /api/v1/health/data`.
struct HealthDataDeletedResponse: Content {
    struct Counts: Content {
        let samples: Int
        let attestedDailyTotals: Int
        let syncLogs: Int
    }
    var success = true
    let deleted: Counts
}
