import Foundation
import HaleTesting
import Testing
import Vapor
import X509

@testable import HaleServer

/// The development CA is made once per database and found again after a restart; the mode warns at start-up.
@Suite("Development attestation: the CA and start-up")
struct DevelopmentAttestationStartupTests {
    static func root(of app: Application) async throws -> Certificate {
        try await #require(app.hale.developmentAttestation).rootCertificate()
    }

    @Test("a restart on the same database finds the same root", arguments: TestDatabase.available)
    func survivesRestart(database: TestDatabase) async throws {
        let (url, dispose) = try await database.provision()
        defer { Task { await dispose() } }
        var first: Certificate?
        try await withHale(databaseURL: url, settings: DevelopmentAttestationTests.on) { app in
            first = try await Self.root(of: app)
        }
        try await withHale(databaseURL: url, settings: DevelopmentAttestationTests.on) { app in
            let again = try await Self.root(of: app)
            #expect(again == first)
        }
    }

    @Test("two instances starting together on one database agree on one CA", arguments: TestDatabase.available)
    func instancesAgree(database: TestDatabase) async throws {
        let (url, dispose) = try await database.provision()
        defer { Task { await dispose() } }
        try await withHale(databaseURL: url) { _ in }  // migrated, with no CA yet
        try await withHale(databaseURL: url, settings: DevelopmentAttestationTests.on) { one in
            try await withHale(databaseURL: url, settings: DevelopmentAttestationTests.on) { two in
                async let first = Self.root(of: one)
                async let second = Self.root(of: two)
                let (a, b) = try await (first, second)
                #expect(a == b)
                let stored = try await one.hale.database.sql.raw(
                    "SELECT COUNT(*) AS count FROM development_attestation_authorities"
                ).first()?.decode(column: "count", as: Int.self)
                #expect(stored == 1)
            }
        }
    }

    @Test("start-up warns that the mode is on, and creates the CA before any request")
    func warnsAtStartUp() async throws {
        let capture = LogCapture()
        try await withHale(settings: DevelopmentAttestationTests.on) { app in
            app.logger = capture.logger()
            let repository = SQLDevelopmentAuthorityRepository(database: app.hale.database)
            #expect(try await repository.authority() == nil)
            try await app.asyncBoot()
            #expect(try await repository.authority() != nil)
        }
        let warnings = capture.text.split(separator: "\n").filter { $0.hasPrefix("warning") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("appAttest.developmentMode is on") == true)
        #expect(warnings.first?.contains("must never be on in production") == true)
    }

    @Test("start-up with the mode off says nothing of it and makes no CA")
    func silentWhenOff() async throws {
        let capture = LogCapture()
        try await withHale { app in
            app.logger = capture.logger()
            try await app.asyncBoot()
            #expect(app.hale.developmentAttestation == nil)
            #expect(try await SQLDevelopmentAuthorityRepository(database: app.hale.database).authority() == nil)
        }
        #expect(!capture.text.contains("developmentMode"))
    }

    @Test("the mode is off unless configured, and a root that is not a PEM stops it at start-up")
    func configuration() async throws {
        #expect(try HaleConfiguration(ConfigValues()).health.appAttestDevelopmentMode == false)
        var settings = DevelopmentAttestationTests.on
        settings["appAttest.rootCertificate"] = "not a certificate"
        await #expect(throws: ConfigError("appAttest.rootCertificate must be a PEM certificate")) {
            try await withHale(settings: settings) { _ in }
        }
    }
}
