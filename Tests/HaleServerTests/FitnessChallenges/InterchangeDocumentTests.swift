import ByteEncoding
import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// The account's daily totals as FHIR R4 and Open mHealth documents, validated with Python's `jsonschema` against
/// the official schemas kept in `Tests/InterchangeSchemas` (their sources and SHA-256 in its `SOURCES.md`).
@Suite("Health interchange: FHIR R4 and Open mHealth")
struct InterchangeDocumentTests {
    typealias Verified = VerifiedChallengeTests
    typealias Provenance = ProvenanceStatementTests

    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("InterchangeSchemas")
    static let canValidate = TestProcess.succeeds([
        TestPython.executable, "-c", "import jsonschema, referencing, rfc3339_validator",
    ])

    /// Runs `validate.py KIND FILE`, true when the document is valid.
    static func validate(_ kind: String, _ document: Data) throws -> Bool {
        let directory = try TestProcess.makeTemporaryDirectory("interchange")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("document.json")
        try document.write(to: file)
        let script = schemas.appendingPathComponent("validate.py").path
        return try TestProcess.run([TestPython.executable, script, kind, file.path]).status == 0
    }

    static func get(_ member: Verified.Member, _ path: String) async throws -> TestingHTTPResponse {
        let response = try await member.app.testing().sendRequest(
            .GET, path + Provenance.range, headers: .bearer(member.token))
        #expect(response.status == .ok, "\(response.body.string)")
        return response
    }

    @Test("the validator refuses the broken examples and accepts the good ones", .enabled(if: canValidate))
    func validatorCanFail() throws {
        let examples = Self.schemas.appendingPathComponent("examples")
        #expect(
            try Self.validate("fhir", Data(contentsOf: examples.appendingPathComponent("fhir-bundle-collection.json"))))
        let broken = examples.appendingPathComponent("broken")
        for name in try FileManager.default.contentsOfDirectory(atPath: broken.path) where name.hasPrefix("fhir") {
            #expect(try !Self.validate("fhir", Data(contentsOf: broken.appendingPathComponent(name))), "\(name)")
        }
    }

    @Test(
        "the FHIR Bundle: LOINC-coded Observations a day, a Provenance with the signed statement for attested days",
        .enabled(if: canValidate), arguments: TestDatabase.available)
    func fhir(database: TestDatabase) async throws {
        try await Verified.withMember(on: database) { member in
            _ = try await Provenance.seed(member)
            try await member.sync(
                [Verified.sample("metres", 3_000, type: "distance", unit: "m")], attested: true)
            let response = try await Self.get(member, "/api/v1/health/fhir")
            #expect(response.headers.contentType?.subType == "fhir+json")
            let body = Data(buffer: response.body)
            #expect(try Self.validate("fhir", body), "\(String(decoding: body, as: UTF8.self))")
            let bundle = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            let resources = (bundle["entry"] as? [[String: Any]] ?? []).compactMap { $0["resource"] as? [String: Any] }
            let observations = resources.filter { $0["resourceType"] as? String == "Observation" }
            let codes = observations.compactMap {
                (($0["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String
            }
            #expect(
                codes == ["41950-7", "55430-3", "41950-7", "41950-7"],
                "steps and distance on the 28th; steps on 29th, 30th")
            let provenances = resources.filter { $0["resourceType"] as? String == "Provenance" }
            #expect(provenances.count == 2, "the 28th and the 29th are attested; the 30th is not")
            let signature = try #require((provenances.first?["signature"] as? [[String: Any]])?.first)
            let jws = String(decoding: Data(base64Encoded: signature["data"] as? String ?? "") ?? Data(), as: UTF8.self)
            let payload = try #require(jws.split(separator: ".").dropFirst().first)
            let claims =
                try JSONSerialization.jsonObject(
                    with: try #require(Base64URL.decode(String(payload)))) as? [String: Any]
            #expect(
                claims?["day"] as? String == "2025-10-28" && claims?["sub"] as? String == member.account.description)
        }
    }

    @Test("Open mHealth: a step-count 3.0 and a physical-activity 1.2 data point a day", .enabled(if: canValidate))
    func openMHealth() async throws {
        try await Verified.withMember { member in
            _ = try await Provenance.seed(member)
            try await member.sync([Verified.sample("metres", 3_000, type: "distance", unit: "m")], attested: true)
            let response = try await Self.get(member, "/api/v1/health/openmhealth")
            let points = try #require(try response.json()["dataPoints"] as? [[String: Any]])
            #expect(points.count == 4, "step counts on three days, and one day's distance")
            for point in points {
                let data = try JSONSerialization.data(withJSONObject: point)
                #expect(try Self.validate("omh", data), "\(String(decoding: data, as: UTF8.self))")
            }
            let first = try #require(points.first?["body"] as? [String: Any])
            #expect((first["step_count"] as? [String: Any])?["value"] as? Double == 4_000)
            let sources = points.compactMap {
                (($0["header"] as? [String: Any])?["acquisition_provenance"] as? [String: Any])?["source_name"]
                    as? String
            }
            #expect(
                sources.map { $0.contains("attested") } == [true, true, true, false],
                "the 28th and the 29th are attested; the 30th is not: \(sources)")
        }
    }
}
