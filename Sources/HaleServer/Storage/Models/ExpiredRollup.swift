import Foundation

/// A daily rollup that retention deleted, with the values fitness challenges keep of it.
struct ExpiredRollup: Decodable, Sendable {
    let accountId: AccountID
    /// The local day, as a day number.
    let day: Int
    let type: String
    let value: Double
    let valueExcludingUserEntered: Double
    let valueVerifiedWatch: Double
    let valueVerifiedPhone: Double
    let valueVerifiedOther: Double
    let implausibleRate: String?
    let implausibleStride: String?
}
