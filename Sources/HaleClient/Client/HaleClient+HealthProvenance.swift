import Foundation

/// Issue 35's provenance and interchange documents: signed statements of which totals came from which attested app
/// instance, and the account's daily totals as FHIR R4 and Open mHealth.
extension HaleClient {
    /// The account's signed provenance statements from `startDate` through `endDate` (`YYYY-MM-DD`, at most 31
    /// days): one for each day with attested data. Anyone can check one offline against the server's
    /// `/.well-known/jwks.json` with a standard JWS library.
    public func healthProvenance(from startDate: String, through endDate: String) async throws
        -> [ProvenanceStatement]
    {
        let answer: ProvenanceAnswer = try await send(
            "GET", "api/v1/health/provenance", query: Self.range(startDate, endDate), as: .session)
        return answer.statements
    }

    /// The account's daily totals from `startDate` through `endDate` (at most 31 days) as a FHIR R4 `Bundle` of
    /// type `collection`, with a `Provenance` for each attested day; the document as the server sent it.
    public func fhirBundle(from startDate: String, through endDate: String) async throws -> Data {
        try await send("GET", "api/v1/health/fhir", query: Self.range(startDate, endDate), json: nil, as: .session)
    }

    /// The account's daily totals from `startDate` through `endDate` (at most 31 days) as Open mHealth data points
    /// (`step-count` 3.0, `physical-activity` 1.2); the document as the server sent it.
    public func openMHealthDataPoints(from startDate: String, through endDate: String) async throws -> Data {
        try await send(
            "GET", "api/v1/health/openmhealth", query: Self.range(startDate, endDate), json: nil, as: .session)
    }

    /// The account's health export with every day's provenance statement added, as the server sent it.
    public func exportHealthDataWithProvenance() async throws -> Data {
        try await send(
            "GET", "api/v1/health/export", query: [URLQueryItem(name: "provenance", value: "true")], json: nil,
            as: .session)
    }

    private static func range(_ startDate: String, _ endDate: String) -> [URLQueryItem] {
        [URLQueryItem(name: "startDate", value: startDate), URLQueryItem(name: "endDate", value: endDate)]
    }

    private struct ProvenanceAnswer: Decodable { let statements: [ProvenanceStatement] }
}

/// One day's signed provenance statement.
public struct ProvenanceStatement: Sendable, Hashable, Decodable {
    /// The day, `YYYY-MM-DD`.
    public let date: String
    /// The statement: a compact JWS (`ES256`, `typ` `hale-provenance+jwt`) signed with the server's provenance key.
    public let statement: String
}
