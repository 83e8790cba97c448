import Crypto
import Foundation

/// Seed 001's attested health data: one-time nonces, App Attest keys, attested daily totals and statistics.
extension HaleClient {
    /// A one-time nonce for an attestation or assertion.
    public func attestationNonce() async throws -> AttestationNonce {
        try await send("GET", "health/attestation-nonce", as: .session)
    }

    /// Makes an App Attest key with `attester`, attests it over a fresh nonce and registers it; returns its key id,
    /// which the app keeps for `submitHealth`.
    public func registerAppAttestKey(with attester: some AppAttester) async throws -> String {
        let keyID = try await attester.generateKey()
        let nonce = try await attestationNonce().nonce
        let attestation = try await attester.attestKey(keyID, clientDataHash: Self.clientDataHash(nonce))
        let _: RegisteredKey = try await send(
            "POST", "health/attestation-keys",
            json: ["keyId": keyID, "attestation": attestation.base64EncodedString(), "nonce": nonce], as: .session)
        await useAppAttestKey(keyID, of: attester)
        return keyID
    }

    /// Makes the client assert each refresh with the key `keyID` of `attester`, this installation's: what a server
    /// that binds sessions to attested app instances (`tokens.bindToAttestation`) requires of a bound session.
    /// `registerAppAttestKey(with:)` does it for the key it registers; call it at launch with the key kept from
    /// then, as `restore(_:)` is called with the tokens.
    public func useAppAttestKey(_ keyID: String, of attester: some AppAttester) async {
        await appInstance.set(.appAttest(attester, keyID: keyID))
    }

    /// Submits one day's totals from `source`, attested by an assertion of the registered key `keyID` over a fresh
    /// nonce. `date` is the local day, `YYYY-MM-DD`; nil means today in `timeZone`.
    public func submitHealth(
        _ totals: DailyHealthTotals, date: String? = nil, source: String, attestedWith attester: some AppAttester,
        keyID: String, timeZone: TimeZone? = nil
    ) async throws -> StoredHealthDay {
        let nonce = try await attestationNonce().nonce
        let assertion = try await attester.generateAssertion(keyID, clientDataHash: Self.clientDataHash(nonce))
        return try await submitHealth(
            totals, date: date, source: source, platform: "ios", nonce: nonce,
            attestationToken: assertion.base64EncodedString(), timeZone: timeZone)
    }

    /// Submits one day's totals with an attestation token made elsewhere: a Play Integrity token for `android`,
    /// or a base64 App Attest assertion for `ios`, over `nonce`.
    public func submitHealth(
        _ totals: DailyHealthTotals, date: String? = nil, source: String, platform: String, nonce: String,
        attestationToken: String, timeZone: TimeZone? = nil
    ) async throws -> StoredHealthDay {
        let body = SubmissionBody(
            nonce: nonce, attestationToken: attestationToken, platform: platform, steps: totals.steps,
            duration: totals.duration, calories: totals.calories, distance: totals.distance, source: source,
            date: date)
        return try await send("POST", "health", headers: Self.zoneHeader(timeZone), json: body, as: .session)
    }

    /// Totals per day, ISO week or month from `startDate` to `endDate` (`YYYY-MM-DD`, inclusive).
    public func statistics(
        from startDate: String, to endDate: String, by period: StatisticsPeriod = .day, timeZone: TimeZone? = nil
    ) async throws -> HealthStatistics {
        try await send(
            "GET", "health/statistics",
            query: [
                URLQueryItem(name: "startDate", value: startDate), URLQueryItem(name: "endDate", value: endDate),
                URLQueryItem(name: "period", value: period.rawValue),
            ], headers: Self.zoneHeader(timeZone), as: .session)
    }

    /// Today's totals in the account's time zone, or `timeZone`.
    public func today(timeZone: TimeZone? = nil) async throws -> HealthToday {
        try await send("GET", "health/today", headers: Self.zoneHeader(timeZone), as: .session)
    }

    /// The clientDataHash seed 001's apps pass to App Attest for `nonce`: SHA-256 of its UTF-8.
    static func clientDataHash(_ nonce: String) -> Data {
        Data(SHA256.hash(data: Array(nonce.utf8)))
    }

    private static func zoneHeader(_ timeZone: TimeZone?) -> [String: String] {
        timeZone.map { ["X-Timezone": $0.identifier] } ?? [:]
    }

    private struct RegisteredKey: Decodable {
        let keyId: String
    }

    private struct SubmissionBody: Encodable, Sendable {
        let nonce: String
        let attestationToken: String
        let platform: String
        let steps: Int
        let duration: Double
        let calories: Double
        let distance: Double
        let source: String
        let date: String?
    }
}
