/// How seed 001's attested day totals meet consent: which consent platform each attestation platform's data comes
/// from (its document's Android app reads Google Fit), and which column of a day's totals holds each kind.
extension DeviceAttestation.Platform {
    /// The consent platform whose grants cover this platform's attested totals.
    var consentPlatform: HealthPlatform {
        switch self {
        case .ios: .apple
        case .android: .google
        }
    }
}

extension HealthPlatform {
    /// The attestation platform whose totals this platform's grants cover; nil for one seed 001 never reads.
    var attestationPlatform: DeviceAttestation.Platform? {
        switch self {
        case .apple: .ios
        case .google: .android
        case .healthConnect: nil
        }
    }
}

extension HealthSampleType {
    /// The kinds an attested day of totals carries.
    static let attestedTotals: Set<HealthSampleType> = [.steps, .distance, .calories, .activeMinutes]

    /// The `health_daily_totals` column holding this kind; nil for a kind attested totals do not carry.
    var attestedTotalColumn: String? {
        switch self {
        case .steps: "steps"
        case .distance: "distance_hundredths"
        case .calories: "calories_hundredths"
        case .activeMinutes: "duration"
        case .workouts, .oxygenSaturation: nil
        }
    }
}
