import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// An upload takes the account's place before it writes a byte, leaves nothing behind when refused or cut off, keeps
/// the disk's free space above a floor, writes files only Hale may read, and is budgeted like the other routes.
@Suite("HTTP: uploads that cannot fill the disk")
struct HealthImportUploadTests {
    typealias Routes = HealthImportRoutesTests

    @Test("while an upload of the account's is in flight, another is 409 before a byte is written")
    func oneUploadInFlightPerAccount() async throws {
        try await Routes.withHarness { harness in
            let imports = harness.app.hale.healthImports
            let inFlight = try await imports.reserveUpload(for: harness.account, zone: .gmt, declaredBytes: nil)
            let second = try await Routes.upload(harness, Data(repeating: 0x3C, count: 100_000))
            #expect(second.status == .conflict)
            #expect(try second.coreError().error.message.contains(inFlight.uuidString.lowercased()))
            #expect(Routes.filesLeft(harness).isEmpty, "nothing written")
            let listed = try await imports.recent(of: harness.account, limit: 5)
            #expect(listed.map(\.status) == [.uploading])

            await imports.abandonUpload(inFlight, of: harness.account)
            #expect(try await imports.recent(of: harness.account, limit: 5).isEmpty)
            #expect(try await Routes.upload(harness, Data("<".utf8)).status == .accepted)
        }
    }

    @Test("a refused upload leaves neither an import nor a file", arguments: TestDatabase.available)
    func aRefusedUploadLeavesNothing(database: TestDatabase) async throws {
        try await Routes.withHarness(on: database, settings: ["health.imports.maxBytes": "1KiB"]) { harness in
            let wrong = "sha-256=:\(Data(repeating: 7, count: 32).base64EncodedString()):"
            let refused = [
                try await Routes.upload(harness, Data("<".utf8), headers: ["Content-Digest": wrong]),
                try await Routes.upload(harness, Data(repeating: 0x3C, count: 2_000)),
                try await Routes.upload(harness, Data()),
            ]
            #expect(refused.map(\.status) == [.badRequest, .payloadTooLarge, .badRequest])
            #expect(try await harness.app.hale.healthImports.recent(of: harness.account, limit: 5).isEmpty)
            #expect(Routes.filesLeft(harness).isEmpty)
        }
    }

    @Test("an upload that would leave less than health.imports.minFreeBytes free is 507, with nothing left behind")
    func theDiskKeepsItsFloor() async throws {
        let settings = ["health.imports.minFreeBytes": "1000000000GiB"]  // an exabyte: no disk has that free
        try await Routes.withHarness(settings: settings) { harness in
            let response = try await Routes.upload(harness, Data("<".utf8))
            #expect(response.status == .insufficientStorage)
            #expect(try response.coreError().error.code == "INSUFFICIENT_STORAGE")
            #expect(try await harness.app.hale.healthImports.recent(of: harness.account, limit: 5).isEmpty)
            #expect(Routes.filesLeft(harness).isEmpty)
            // While the body arrives, the same floor is checked as it is written.
            #expect(throws: HaleError.self) { try harness.app.hale.healthImports.requireFreeSpace(for: 0) }
        }
        try await Routes.withHarness { harness in
            try harness.app.hale.healthImports.requireFreeSpace(for: 1 << 20)
            #expect(try await Routes.upload(harness, Data("<".utf8)).status == .accepted)
        }
    }

    @Test("an upload whose server died in the middle gives the account's place back once the sweep finds it idle")
    func aDeadUploadGivesItsPlaceBack() async throws {
        try await Routes.withHarness { harness in
            let imports = harness.app.hale.healthImports
            let dead = try await imports.reserveUpload(for: harness.account, zone: .gmt, declaredBytes: nil)
            try PrivateDirectory.prepare(imports.directory, setting: "health.imports.directory")
            try Data("half".utf8).write(to: imports.files(for: dead).partial)
            harness.clock.advance(.seconds(60))
            _ = try await imports.sweepFiles()
            #expect(try await Routes.upload(harness, Data("<".utf8)).status == .conflict, "a minute is not idle")
            harness.clock.advance(.seconds(HealthImports.uploadIdleLimit))
            _ = try await imports.sweepFiles()
            #expect(!FileManager.default.fileExists(atPath: imports.files(for: dead).partial.path))
            #expect(try await Routes.upload(harness, Data("<".utf8)).status == .accepted)
        }
    }

    @Test("uploads are counted per account, refused ones too, and a 429 says when to retry")
    func uploadsAreBudgeted() async throws {
        try await Routes.withHarness(settings: ["rateLimits.healthImportsPerAccount": "2/1h"]) { harness in
            #expect(try await Routes.upload(harness, Data("<".utf8)).status == .accepted)
            #expect(try await Routes.upload(harness, Data("<".utf8)).status == .conflict)
            let third = try await Routes.upload(harness, Data("<".utf8))
            #expect(third.status == .tooManyRequests)
            #expect(third.headers.first(name: .retryAfter) != nil)
        }
        try await Routes.withHarness(settings: ["rateLimits.healthImportsPerIp": "1/1h"]) { harness in
            // Two accounts from one address, over a socket so that the server sees the address.
            let (other, otherToken) = try await makeAccount(harness.app, email: "other@example.com")
            _ = try await harness.app.hale.healthConsents.grant(platform: .apple, permissions: [.steps], to: other.id)
            let tester = try harness.app.testing(method: .running(hostname: "127.0.0.1", port: try freeLoopbackPort()))
            var statuses: [HTTPStatus] = []
            for token in [harness.token, otherToken] {
                statuses.append(
                    try await tester.sendRequest(
                        .POST, "/api/v1/health/imports", headers: .bearer(token), body: ByteBuffer(string: "<")
                    ).status)
            }
            #expect(statuses == [.accepted, .tooManyRequests])
        }
    }

    @Test("the imports directory is Hale's alone: made 0700, each upload 0600")
    func uploadsArePrivate() async throws {
        try await Routes.withHarness { harness in
            let id = try await Routes.uploadedID(harness, Data("<".utf8))
            let file = harness.app.hale.healthImports.files(for: id).complete
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
            let directory = try FileManager.default.attributesOfItem(atPath: harness.directory.path)
            #expect(directory[.posixPermissions] as? Int == 0o700)
        }
    }
}
