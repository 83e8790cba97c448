import Foundation
import HaleTesting
import NIOCore
import Testing

@testable import HaleServer

/// The samples' bulk path on PostgreSQL: rows written in `COPY`'s text format, escaped so that any value a client
/// may send reads back as sent.
@Suite("Health samples: COPY on PostgreSQL")
struct HealthSampleCopyTests {
    static let account = AccountID(UUID(uuidString: "6A0D2A55-77C4-4B55-9C1B-8E2C55B0A001")!)

    static func sample(
        _ platformId: String, source: String?, start: Date = Date(timeIntervalSince1970: 1_764_230_400.125),
        version: Int64? = 7
    ) -> StoredHealthSample {
        StoredHealthSample(
            id: UUID(uuidString: "0E6F3A1C-2B4D-4E5F-8A9B-0C1D2E3F4A5B")!, accountId: account, provider: "healthkit",
            platformId: platformId, type: "steps", value: 12.5, startAt: start, endAt: start + 60,
            utcOffsetSeconds: -18_000, sourceBundle: source, deviceModel: nil, deviceType: "TYPE_WATCH",
            userEntered: true, version: version, dedupHash: "ab", createdAt: start, updatedAt: start)
    }

    @Test("a row is its columns in order, apart by tabs; null is \\N; backslash, tab, newline and return are escaped")
    func aRowInTextFormat() {
        var text = PostgresCopyText()
        Self.sample("p-1", source: "a\\b\tc\nd\re", version: nil).write(to: &text)
        #expect(
            String(buffer: text.buffer)
                == "0e6f3a1c-2b4d-4e5f-8a9b-0c1d2e3f4a5b\t6a0d2a55-77c4-4b55-9c1b-8e2c55b0a001\thealthkit\tp-1\tsteps"
                + "\t12.5\t2025-11-27 08:00:00.125000+00\t2025-11-27 08:01:00.125000+00\t-18000"
                + "\ta\\\\b\\tc\\nd\\re\t\\N\tTYPE_WATCH\tt\t\\N\tab"
                + "\t2025-11-27 08:00:00.125000+00\t2025-11-27 08:00:00.125000+00\t\\N\n")
    }

    @Test("a time before 1970 is written with its date rounded down and a fraction that is not negative")
    func aTimeBefore1970() {
        var text = PostgresCopyText()
        text.timestamp(Date(timeIntervalSince1970: -0.25))
        text.timestamp(Date(timeIntervalSince1970: -86_400 * 365))
        #expect(String(buffer: text.buffer) == "1969-12-31 23:59:59.750000+00\t1969-01-01 00:00:00.000000+00")
    }

    @Test(
        "rows copied into PostgreSQL read back as written, whatever their text holds",
        .enabled(if: TestDatabase.postgresAdminURL != nil, "needs HALE_TEST_POSTGRES_URL"))
    func rowsReadBackAsWritten() async throws {
        try await withHale(on: .postgres) { app in
            let account = try await app.hale.accounts.create(email: nil, role: "user").id
            var tricky = Self.sample("p-é\\N", source: "tab\there\\N \\. \r\n“quoted”")
            tricky.accountId = account
            var plain = Self.sample("p-2", source: nil, version: nil)
            plain.accountId = account
            plain.id = UUID()
            let repository = SQLHealthSampleRepository(database: app.hale.database)
            try await repository.insert([tricky, plain])
            let read = try await repository.samples(of: account, provider: "healthkit", platformIds: ["p-é\\N", "p-2"])
            #expect(read["p-é\\N"] == tricky)
            #expect(read["p-2"] == plain)
        }
    }
}
