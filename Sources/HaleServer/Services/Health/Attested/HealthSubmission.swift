import Foundation

/// A validated `POST /health` body.
public struct HealthSubmission: Sendable, Equatable {
    /// The nonce the attestation was made with.
    public var nonce: String
    /// The Play Integrity token, or the base64 App Attest assertion (or attestation).
    public var attestationToken: String
    /// Which attestation it is.
    public var platform: DeviceAttestation.Platform
    /// The day's totals.
    public var totals: HealthTotals
    /// Where the data comes from, such as `ios_health`.
    public var source: String
    /// The day; today in the account's time zone when absent.
    public var date: LocalDate?
}

extension HealthPlausibility {
    /// The first of a day's totals over its daily maximum, in seed 001's order: steps, calories, distance, duration.
    func checkDay(_ totals: HealthTotals) throws(ImplausibleHealthData) {
        let measures: [(HealthSampleType, Double)] = [
            (.steps, Double(totals.steps)), (.calories, Double(totals.caloriesHundredths) / 100),
            (.distance, Double(totals.distanceHundredths) / 100), (.activeMinutes, Double(totals.duration)),
        ]
        for (type, value) in measures {
            try ImplausibleHealthData.check(implausibility(ofDayTotal: value, of: type))
        }
    }
}
