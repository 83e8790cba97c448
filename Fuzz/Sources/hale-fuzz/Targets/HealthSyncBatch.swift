import Foundation
import HealthSamples

@testable import HaleServer

extension FuzzTarget {
    /// `Sources/HaleServer`'s sample sync and `Sources/HealthSamples`: a `POST /api/v1/health/sync` body decoded as
    /// the route decodes it, checked and normalised as `HealthSync.sync` does before it stores anything, and the
    /// local days the rollup writer then recomputes. Inputs: `B` then the body's JSON, or `T` then one client
    /// timestamp or UTC offset.
    static let healthSync = FuzzTarget(name: "health-sync") { bytes in
        guard let mode = bytes.first else { return }
        let body = Data(bytes.dropFirst())
        switch mode {
        case UInt8(ascii: "B"): prepareSync(body)
        case UInt8(ascii: "T"):
            let text = FuzzInput.text(body)
            _ = ClientTimestamp(text)
            _ = ClientTimestamp.offsetSeconds(text)
        default: return
        }
    }

    private static let account = AccountID(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))
    // A zone with daylight saving, so offsets come from the zone when a sample names none; the identifier is valid.
    private static let zone = TimeZone(identifier: "Europe/Berlin")!
    private static let now = Date(timeIntervalSince1970: 1_750_000_000)

    private static func prepareSync(_ json: Data) {
        guard let body = try? JSONDecoder().decode(Strict<SyncRequest>.self, from: json).value,
            let batch = try? body.batch(), let request = try? HealthSync.Request(batch)
        else { return }
        let (prepared, _) = HealthSync.prepare(
            batch.samples[...], provider: request.provider, account: account, zone: zone, plausibility: .standard,
            now: now)
        _ = HealthRollupWriter.days(of: prepared.map(\.stored))
    }
}
