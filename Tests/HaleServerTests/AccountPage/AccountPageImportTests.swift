import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("the account page's Apple Health import")
struct AccountPageImportTests {
    @Test(
        "the page uploads an export with its cookie and CSRF token, lists it, and follows it to the end",
        arguments: TestDatabase.available)
    func thePageImportsAnExport(database: TestDatabase) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hale-imports-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var settings = PageVisitor.settings
        settings["health.imports.directory"] = directory.path
        settings["health.imports.worker"] = "false"
        let clock = TestClock(AppleHealthImportTests.now)
        try await withHale(on: database, clock: clock.clock, settings: settings) { app in
            var browser = try PageVisitor(app)
            _ = try await browser.signUp()
            struct Grant: Encodable {
                let platform = "apple"
                let permissions = ["steps", "workouts"]
            }
            let granted = try await browser.send(.POST, "/account/api/consent", json: Grant())
            #expect(granted.status == .ok || granted.status == .created, "\(granted.body.string)")
            let (data, expected) = try HealthImportRoutesTests.exportZip()
            let zone: HTTPHeaders = ["X-Timezone": HealthImportRoutesTests.zone.identifier]
            func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] }

            let forged = try await browser.send(.POST, "/account/api/health/imports", file: data, csrf: false)
            #expect(forged.status == .forbidden)
            #expect(try forged.coreError().error.code == "CSRF_REJECTED")
            #expect(files().isEmpty, "refused before the body is read")

            let uploaded = try await browser.send(.POST, "/account/api/health/imports", file: data, headers: zone)
            #expect(uploaded.status == .accepted, "\(uploaded.body.string)")
            let id = try #require(try HealthImportRoutesTests.importObject(uploaded)["id"] as? String)
            #expect(uploaded.headers.first(name: .location) == "/account/api/health/imports/\(id)")
            let listed = try await browser.send(.GET, "/account/api/health/imports")
            let imports = try #require(try listed.json()["imports"] as? [[String: Any]])
            #expect(imports.map { $0["id"] as? String } == [id])
            #expect(imports.first?["status"] as? String == "queued")

            let outcome = try await app.hale.healthImports.processNext(logger: app.logger)
            #expect(outcome == .completed(try #require(UUID(uuidString: id))))
            let shown = try await browser.send(.GET, "/account/api/health/imports/\(id)")
            let done = try HealthImportRoutesTests.importObject(shown)
            #expect(done["status"] as? String == "completed")
            let summary = try #require(done["summary"] as? [String: Any])
            #expect(summary["recordsRead"] as? Int == expected.records)
            #expect(summary["imported"] as? Int == expected.stepRecords + expected.workouts)
            #expect(files().isEmpty)
        }
    }

    @Test func thePagesImportRoutesTakeNoBearerToken() async throws {
        try await withHale(settings: PageVisitor.settings) { app in
            let (_, token) = try await makeAccount(app)
            for (method, path) in [(HTTPMethod.GET, "health/imports"), (.POST, "health/imports")] {
                let response = try await app.testing().sendRequest(
                    method, "/account/api/\(path)", headers: .bearer(token), body: ByteBuffer(string: "x"))
                #expect(response.status == .unauthorized, "\(method) \(path)")
            }
        }
    }
}
