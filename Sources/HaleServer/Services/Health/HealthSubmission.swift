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

/// The plausibility limits of one day's totals.
public struct HealthLimits: Sendable, Equatable {
    /// Steps a day.
    public var steps: Int64
    /// Seconds of activity a day.
    public var duration: Int64
    /// Kilocalories a day.
    public var calories: Int64
    /// Metres a day.
    public var distance: Int64

    /// Seed 001's messages, verbatim, for the first total over its limit.
    func check(_ totals: HealthTotals) throws {
        if totals.steps > steps { throw HaleError.invalidRequest("Step count is implausibly high") }
        if totals.caloriesHundredths > calories * 100 {
            throw HaleError.invalidRequest("Calorie count is implausibly high")
        }
        if totals.distanceHundredths > distance * 100 { throw HaleError.invalidRequest("Distance is implausibly high") }
        if totals.duration > duration { throw HaleError.invalidRequest("Duration is implausibly high") }
    }
}
