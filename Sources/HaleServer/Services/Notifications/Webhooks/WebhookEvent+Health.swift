import Foundation
import StrictJSON

extension WebhookEvent {
    /// `health.synced`: the batch's counts, and the local days it changed by type; never a value.
    static func healthSynced(_ log: HealthSyncLog, days: [String: Set<LocalDate>], at date: Date) -> WebhookEvent {
        let changed = days.keys.sorted().map { type in
            JSONValue.object([
                "type": .string(type),
                "days": .array((days[type] ?? []).sorted().map { .string($0.description) }),
            ])
        }
        let data: [String: JSONValue] = [
            "syncLogId": .string(log.id.uuidString.lowercased()), "provider": .string(log.provider),
            "syncType": .string(log.syncType.rawValue), "status": .string(log.status.rawValue),
            "inserted": .integer(Int64(log.recordsInserted)), "updated": .integer(Int64(log.recordsUpdated)),
            "deleted": .integer(Int64(log.recordsDeleted)), "deduplicated": .integer(Int64(log.recordsDeduplicated)),
            "rejected": .integer(Int64(log.recordsRejected)), "changed": .array(changed),
        ]
        return WebhookEvent(.healthSynced, account: log.accountId, data: data, at: date)
    }
}

extension WebhookEvent {
    /// `import.completed` with the summary's counts, or `import.failed` with its error's code; nil for any other end.
    static func importEnded(
        _ record: HealthImport, as status: HealthImport.Status, summary: AppleHealthImport.Summary, error: String?,
        at date: Date
    ) -> WebhookEvent? {
        var data: [String: JSONValue] = ["importId": .string(record.id.uuidString.lowercased())]
        switch status {
        case .completed:
            data["recordsRead"] = .integer(Int64(summary.recordsRead))
            data["imported"] = .integer(Int64(summary.imported))
            data["deduplicated"] = .integer(Int64(summary.deduplicated))
            data["rejected"] = .integer(Int64(summary.rejected.values.reduce(0, +)))
            return WebhookEvent(.importCompleted, account: record.accountId, data: data, at: date)
        case .failed:
            data["errorCode"] = .string(error ?? "")
            return WebhookEvent(.importFailed, account: record.accountId, data: data, at: date)
        default:
            return nil
        }
    }
}

extension WebhookEvent {
    /// `health.synced` for seed 001's attested day of totals: its day, source and platform, never the totals.
    static func attestedDay(_ total: HealthDailyTotal, replaced: Bool) -> WebhookEvent {
        let data: [String: JSONValue] = [
            "provider": .string(total.platform), "source": .string(total.source), "attested": .bool(true),
            "replaced": .bool(replaced),
            "changed": .array([
                .object(["type": .string("daily_totals"), "days": .array([.string(total.day.description)])])
            ]),
        ]
        return WebhookEvent(.healthSynced, account: total.accountId, data: data, at: total.updatedAt)
    }
}
