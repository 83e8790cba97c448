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
    /// Seed 001's messages, verbatim, for the first of a day's totals over its daily maximum.
    func checkDay(_ totals: HealthTotals) throws {
        if Double(totals.steps) > limit(for: .steps).maximumPerDay {
            throw HaleError.invalidRequest("Step count is implausibly high")
        }
        if Double(totals.caloriesHundredths) > limit(for: .calories).maximumPerDay * 100 {
            throw HaleError.invalidRequest("Calorie count is implausibly high")
        }
        if Double(totals.distanceHundredths) > limit(for: .distance).maximumPerDay * 100 {
            throw HaleError.invalidRequest("Distance is implausibly high")
        }
        if Double(totals.duration) > limit(for: .activeMinutes).maximumPerDay {
            throw HaleError.invalidRequest("Duration is implausibly high")
        }
    }
}
