import Vapor

/// `GET /health/attestation-nonce`.
struct NonceResponse: Content {
    let nonce: String
    let expiresAt: String
}

/// `GET /health/today`.
struct TodayResponse: Content {
    let date: String
    let steps: Int64
    let duration: Int64
    let calories: Double
    let distance: Double
    @Nullable var lastUpdated: String?

    init(_ today: HealthData.Today) {
        date = today.day.description
        steps = today.totals.steps
        duration = today.totals.duration
        calories = today.totals.calories
        distance = today.totals.distance
        lastUpdated = today.lastUpdated.map(ISO8601.string)
    }
}

/// `POST /health`: the stored day, as seed 001 documents it, and whether it replaced an earlier submission.
struct HealthSubmissionResponse: Content {
    let id: String
    let userId: String
    let date: String
    let steps: Int64
    let duration: Int64
    let calories: Double
    let distance: Double
    let source: String
    let createdAt: String
    let updatedAt: String
    let replaced: Bool

    init(_ stored: HealthDailyTotal, replaced: Bool) {
        id = stored.id.uuidString.lowercased()
        userId = stored.accountId.description
        date = stored.day.description
        steps = stored.totals.steps
        duration = stored.totals.duration
        calories = stored.totals.calories
        distance = stored.totals.distance
        source = stored.source
        createdAt = ISO8601.string(stored.createdAt)
        updatedAt = ISO8601.string(stored.updatedAt)
        self.replaced = replaced
    }
}

/// `POST /health/attestation-keys`.
struct AttestationKeyResponse: Content {
    let keyId: String
    let createdAt: String
}
