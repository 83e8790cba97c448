import Foundation

/// An account's days as the interchange formats describe them: each activity type's daily total, the day's bounds
/// in the account's zone, whether it holds attested data, and then its signed provenance statement when asked for.
struct HealthDays: Sendable {
    /// One day: what devices recorded, never what a person typed in.
    struct Day: Sendable {
        let day: LocalDate
        /// Local midnight at the start and at the end, in the account's zone, as ISO 8601 with its offset.
        let start: String
        let end: String
        /// Each type's total that day, in canonical units, in `types` order; only types with data.
        let totals: [(type: HealthSampleType, value: Double)]
        /// Whether any of the day's data came from an attested write.
        let attested: Bool
        /// The day's statement, when it is attested and the reader asked for statements.
        let provenance: ProvenanceStatements.Signed?
    }

    /// The types the documents carry: the four a person accumulates.
    static let types: [HealthSampleType] = [.steps, .distance, .calories, .activeMinutes]

    let account: AccountID
    let issuer: String
    let madeAt: Date
    let days: [Day]

    /// Reads the account's totals over `first … last`, and the attested days' statements when `signed`; without,
    /// it signs nothing and only marks which days are attested.
    static func read(
        of account: AccountID, from first: LocalDate, through last: LocalDate, sync: HealthSync,
        provenance: ProvenanceStatements, signed: Bool, zone: TimeZone, issuer: String, now: Date
    ) async throws -> HealthDays {
        let statements: [ProvenanceStatements.Signed]
        let attestedDays: Set<LocalDate>
        if signed {
            statements = try await provenance.statements(of: account, from: first, through: last)
            attestedDays = Set(statements.map(\.day))
        } else {
            statements = []
            attestedDays = Set(try await provenance.claims(of: account, from: first, through: last).map(\.day))
        }
        var totals: [HealthSampleType: [LocalDate: Double]] = [:]
        for type in types {
            totals[type] = try await sync.dailyTotals(
                of: account, type: type, from: first, through: last, includingUserEntered: false)
        }
        let byDay = Dictionary(statements.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        var days: [Day] = []
        var day = first
        while day <= last {
            let values = types.compactMap { type in totals[type]?[day].map { (type, $0) } }
            if !values.isEmpty {
                days.append(
                    Day(
                        day: day, start: midnight(of: day, in: zone), end: midnight(of: day.adding(days: 1), in: zone),
                        totals: values, attested: attestedDays.contains(day), provenance: byDay[day]))
            }
            day = day.adding(days: 1)
        }
        return HealthDays(account: account, issuer: issuer, madeAt: now, days: days)
    }

    /// Local midnight at the start of `day` in `zone`, with its offset.
    static func midnight(of day: LocalDate, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let (year, month, date) = day.components
        let instant =
            calendar.date(from: DateComponents(year: year, month: month, day: date))
            ?? Date(timeIntervalSince1970: Double(day.dayNumber * 86_400))
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: instant)
    }
}
