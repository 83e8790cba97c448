import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Push tokens keep one rule on both routes that take them: seed 002's `PUT /api/v1/devices/push-token` and seed
/// 003's `deviceTokens` at sign-in, whose tokens are the primary key of `push_registrations`.
@Suite("HTTP: push token bounds")
struct PushTokenInputTests {
    static let rule = "must be 1 to 512 characters of A-Z, a-z, 0-9, ':', '_' and '-'."
    /// Random token characters barely compress: 3,000 of them are over PostgreSQL's 2,704-byte index entry limit.
    static let threeKilobytes = String(
        (0..<3000).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_:".randomElement() ?? "a"
        })

    static let refused: [(String, String)] = [
        ("", "empty"), (String(repeating: "a", count: 513), "513 characters"), (threeKilobytes, "3,000 characters"),
        ("fcm\u{7F}token", "DEL"), ("fcm\ttoken", "a tab"), ("fcm token", "a space"), ("fcm,token", "a comma"),
        ("tökén", "non-ASCII"),
    ]

    @Test("PUT /api/v1/devices/push-token refuses an fcmToken out of bounds", arguments: refused)
    func deviceRoute(token: String, why: String) async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeAccount(app)
            let device = try await api.register(try DeviceClient(.iOS), bearer: bearer)
            let response = try await api.send(
                .PUT, "/api/v1/devices/push-token", ["deviceId": device, "fcmToken": token], bearer: bearer)
            #expect(response.status == .badRequest, "\(why)")
            #expect(try response.coreError().error.message == "fcmToken \(Self.rule)")
        }
    }

    @Test("an fcmToken of 512 characters is stored", arguments: TestDatabase.available)
    func longestOnDeviceRoute(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeAccount(app)
            let device = try await api.register(try DeviceClient(.iOS), bearer: bearer)
            let token = String(Self.threeKilobytes.prefix(512))
            let response = try await api.send(
                .PUT, "/api/v1/devices/push-token", ["deviceId": device, "fcmToken": token], bearer: bearer)
            #expect(response.status == .ok, "\(response.body.string)")
        }
    }

    @Test("an apnsToken that is not hex names the rule")
    func apnsToken() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeAccount(app)
            let device = try await api.register(try DeviceClient(.iOS), bearer: bearer)
            for token in [
                "zz", String(repeating: "a", count: 63), String(repeating: "a", count: 202),
                "٣" + String(repeating: "a", count: 64),
            ] {
                let response = try await api.send(
                    .PUT, "/api/v1/devices/push-token", ["deviceId": device, "apnsToken": token], bearer: bearer)
                #expect(response.status == .badRequest)
                #expect(
                    try response.coreError().error.message
                        == "apnsToken must be the device token in hex: an even number of 64 to 200 characters of 0-9, a-f or A-F."
                )
            }
        }
    }

    @Test("seed 003's deviceTokens refuse a token out of bounds, with its pointer", arguments: refused)
    func socialSignIn(token: String, why: String) async throws {
        try await SocialSignInHTTPTests.withProvider { app, provider in
            let response = try await SocialSignInHTTPTests.login(
                app, try Self.document(idToken: try provider.googleIDToken(subject: "g-1"), deviceToken: token))
            let errors = try SocialSignInHTTPTests.errors(
                of: response, .unprocessableEntity, indicator: "VALIDATION_FAILED")
            #expect(errors.count == 1, "\(why)")
            #expect(errors.first?["detail"] as? String == Self.rule)
            let source = errors.first?["source"] as? [String: Any]
            #expect(source?["pointer"] as? String == "/data/relationships/deviceTokens/data/attributes/token")
        }
    }

    @Test(
        "a sign-in with a 3,000-character device token is a 422, never the database's error",
        arguments: TestDatabase.available)
    func oversizedTokenNeverReachesTheDatabase(database: TestDatabase) async throws {
        try await SocialSignInHTTPTests.withProvider(on: database) { app, provider in
            let idToken = try provider.googleIDToken(subject: "g-1")
            let oversized = try await SocialSignInHTTPTests.login(
                app, try Self.document(idToken: idToken, deviceToken: Self.threeKilobytes))
            #expect(oversized.status == .unprocessableEntity, "\(oversized.body.string.prefix(200))")
            let longest = try await SocialSignInHTTPTests.login(
                app, try Self.document(idToken: idToken, deviceToken: String(Self.threeKilobytes.prefix(512))))
            #expect(longest.status == .ok, "\(longest.body.string.prefix(300))")
        }
    }

    static func document(idToken: String, deviceToken: String) throws -> String {
        let document: [String: Any] = [
            "data": [
                "attributes": ["provider": "google", "oauthToken": idToken, "role": "client"],
                "relationships": ["deviceTokens": ["data": ["attributes": ["token": deviceToken]]]],
            ]
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
    }
}
