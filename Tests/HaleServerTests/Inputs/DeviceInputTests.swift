import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Seed 002's device routes bound every string where it enters, one test per rejection.
@Suite("HTTP: seed 002 device input bounds")
struct DeviceInputTests {
    static let nameRule =
        "deviceName must be 1 to 100 characters (Unicode code points), not only spaces, and no control characters."
    static let names: [(String, String)] = [
        (String(repeating: "x", count: 101), "101 characters"),
        ("e" + String(repeating: "\u{301}", count: 1000), "one grapheme cluster of 1,001 scalars"),
        ("Phone\u{1B}[2J", "an escape character"), ("Phone\r\n", "a line break"), ("\u{2003}\u{00A0}", "only spaces"),
        ("", "empty"),
    ]

    @Test("a registration's deviceName keeps the name rule", arguments: names)
    func registrationName(name: String, why: String) async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeAccount(app)
            let response = try await api.registrationChallenge(try DeviceClient(.iOS), bearer: bearer, name: name)
            #expect(response.status == .badRequest, "\(why)")
            #expect(try response.coreError().error.message == Self.nameRule)
        }
    }

    @Test("a rename keeps the name rule", arguments: names)
    func rename(name: String, why: String) async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeAccount(app)
            let device = try await api.register(try DeviceClient(.iOS), bearer: bearer)
            let response = try await api.send(.PATCH, "/api/v1/devices/\(device)", ["deviceName": name], bearer: bearer)
            #expect(response.status == .badRequest, "\(why)")
            #expect(try response.coreError().error.message == Self.nameRule)
        }
    }

    @Test("the longest name is stored whole, trimmed", arguments: TestDatabase.available)
    func longestName(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeAccount(app)
            let device = try await api.register(try DeviceClient(.iOS), bearer: bearer)
            let longest = " " + String(repeating: "📱", count: 98) + " "
            let response = try await api.send(
                .PATCH, "/api/v1/devices/\(device)", ["deviceName": longest], bearer: bearer)
            #expect(response.status == .ok, "\(response.body.string)")
            #expect(try response.json()["name"] as? String == String(repeating: "📱", count: 98))
        }
    }
}
