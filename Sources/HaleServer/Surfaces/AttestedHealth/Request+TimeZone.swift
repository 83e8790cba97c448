import Foundation
import Vapor

extension Request {
    /// The zone the request's `X-Timezone` header names, as seed 001 sends it: nil when absent, an `InvalidInput`
    /// when it is not an IANA name (`HealthData.ianaZone`).
    func timeZoneHeader() throws(InvalidInput) -> TimeZone? {
        guard let name = headers.first(name: "X-Timezone") else { return nil }
        guard let zone = HealthData.ianaZone(name) else {
            throw InvalidInput("X-Timezone", .form("an IANA time zone such as Europe/Berlin"))
        }
        return zone
    }
}
