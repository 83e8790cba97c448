import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// Seed 000's passkey routes bound every string where it enters, one test per rejection; the sign-up options route
/// takes them from anyone, signed in or not.
@Suite("HTTP: seed 000 passkey input bounds")
struct PasskeyInputTests {
    static let settings = ["passkeys.rpId": "localhost", "passkeys.origins": "http://localhost:8080"]
    static let nameRule =
        "must be 1 to 100 characters (Unicode code points), not only spaces, and no control characters."
    static let emailRule =
        "email must be an address of 1 to 254 characters (Unicode code points) with one @, a local part and a dotted domain, and no spaces or control characters."

    private static func post(_ app: Application, _ path: String, _ json: String, bearer: String? = nil) async throws
        -> TestingHTTPResponse
    {
        try await app.testing().sendRequest(.POST, path, headers: .json(bearer: bearer), body: .json(json))
    }

    @Test(
        "a sign-up's options refuse a field out of bounds, saying which limit",
        arguments: [
            (#""platform":"windows""#, "platform must be one of: ios, android, web."),
            (#""platform":"iOS""#, "platform must be one of: ios, android, web."),
            (#""osVersion":"17.4\u0007""#, "osVersion must be 1 to 64 printable ASCII characters."),
            (
                #""osVersion":"\#(String(repeating: "1", count: 65))""#,
                "osVersion must be 1 to 64 printable ASCII characters."
            ),
            (#""osVersion":"१७""#, "osVersion must be 1 to 64 printable ASCII characters."),
            (#""osVersion":"""#, "osVersion must be 1 to 64 printable ASCII characters."),
            (#""deviceName":"\#(String(repeating: "x", count: 101))""#, "deviceName \(nameRule)"),
            (#""deviceName":"e\#(String(repeating: #"\u0301"#, count: 1000))""#, "deviceName \(nameRule)"),
            (#""deviceName":"Pixel\u0007""#, "deviceName \(nameRule)"),
            (#""deviceName":"Pixel\n""#, "deviceName \(nameRule)"),
            (#""deviceName":" \u3000 ""#, "deviceName \(nameRule)"),
            (#""deviceName":"""#, "deviceName \(nameRule)"),
            (#""displayName":"\#(String(repeating: "x", count: 101))""#, "displayName \(nameRule)"),
            (#""displayName":"Noa\u001b[2J""#, "displayName \(nameRule)"),
            (#""displayName":"  ""#, "displayName \(nameRule)"),
            (#""email":"noa\u0001@example.com""#, emailRule),
            (#""email":"\#(String(repeating: "a", count: 243))@example.com""#, emailRule),
            (#""email":"noa@example""#, emailRule),
        ])
    func signUpOptions(field: String, message: String) async throws {
        try await withHale(settings: Self.settings) { app in
            let defaults = [
                "platform": #""platform":"ios""#, "displayName": #""displayName":"Noa""#,
            ]
            let name = String(field.dropFirst().prefix { $0 != "\"" })
            let body = "{" + (defaults.filter { $0.key != name }.values.sorted() + [field]).joined(separator: ",") + "}"
            let response = try await Self.post(app, "/api/mobile/biometric/register/options", body)
            #expect(response.status == .badRequest, "\(response.body.string)")
            let error = try response.coreError().error
            #expect(error.code == "INVALID_REQUEST")
            #expect(error.message == message)
            let issued = try await app.hale.database.sql.raw("SELECT id FROM server_challenges").all()
            #expect(issued.isEmpty, "a refused request stores nothing")
        }
    }

    @Test("the email's 400 never repeats what was sent")
    func emailIsNotEchoed() async throws {
        try await withHale(settings: Self.settings) { app in
            let sent = String(repeating: "<script>", count: 400)
            let response = try await Self.post(
                app, "/api/mobile/biometric/authenticate/options", #"{"email":"\#(sent)"}"#)
            #expect(response.status == .badRequest)
            #expect(try response.coreError().error.message == Self.emailRule)
        }
    }

    @Test("a signed-in account's options take the same rules")
    func signedInOptions() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app)
            let response = try await Self.post(
                app, "/api/mobile/biometric/register/options", #"{"platform":"symbian"}"#, bearer: token)
            #expect(response.status == .badRequest)
            #expect(try response.coreError().error.message == "platform must be one of: ios, android, web.")
        }
    }

    @Test(
        "names at the limit are stored whole and read back", arguments: TestDatabase.available)
    func longestNamesRoundTrip(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let longest = String(repeating: "😀", count: 100)
            let options = try await Self.post(
                app, "/api/mobile/biometric/register/options",
                #"{"displayName":"\#(longest)","platform":"web","osVersion":"\#(String(repeating: "~", count: 64))","deviceName":"\#(longest)"}"#
            )
            #expect(options.status == .ok, "\(options.body.string.prefix(300))")
            let creation = try JSONDecoder().decode(Envelope.self, from: Data(buffer: options.body)).options
            #expect(creation.user.displayName == longest)
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            let verified = try await Self.post(
                app, "/api/mobile/biometric/register/verify",
                try Self.json(VerifyBody(credential: passkey.register(options: creation), deviceInfo: nil)))
            #expect(verified.status == .ok, "\(verified.body.string)")
            let stored = try #require(try verified.json()["passkey"] as? [String: Any])
            #expect(stored["name"] as? String == longest, "the device's name names the passkey")
            let device = try #require(stored["device"] as? [String: Any])
            #expect(device["osVersion"] as? String == String(repeating: "~", count: 64))
        }
    }

    @Test("a register/verify with a bad deviceInfo is refused before the ceremony is spent")
    func verifyDeviceInfo() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app)
            let options = try await Self.post(app, "/api/mobile/biometric/register/options", "{}", bearer: token)
            let creation = try JSONDecoder().decode(Envelope.self, from: Data(buffer: options.body)).options
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            let credential = passkey.register(options: creation)
            for (deviceInfo, message) in [
                (HaleServer.PasskeyDevice(platform: "palm"), "deviceInfo.platform must be one of: ios, android, web."),
                (
                    HaleServer.PasskeyDevice(osVersion: "14\n"),
                    "deviceInfo.osVersion must be 1 to 64 printable ASCII characters."
                ),
                (HaleServer.PasskeyDevice(deviceName: "\u{7F}"), "deviceInfo.deviceName \(Self.nameRule)"),
            ] {
                let refused = try await Self.post(
                    app, "/api/mobile/biometric/register/verify",
                    try Self.json(VerifyBody(credential: credential, deviceInfo: deviceInfo)), bearer: token)
                #expect(refused.status == .badRequest)
                #expect(try refused.coreError().error.message == message)
            }
            let accepted = try await Self.post(
                app, "/api/mobile/biometric/register/verify",
                try Self.json(
                    VerifyBody(credential: credential, deviceInfo: HaleServer.PasskeyDevice(platform: "android"))),
                bearer: token)
            #expect(accepted.status == .ok, "\(accepted.body.string)")
        }
    }

    @Test("only known transports are stored, each once", arguments: TestDatabase.available)
    func transports(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let (account, token) = try await makeAccount(app)
            let options = try await Self.post(app, "/api/mobile/biometric/register/options", "{}", bearer: token)
            let creation = try JSONDecoder().decode(Envelope.self, from: Data(buffer: options.body)).options
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            var credential = passkey.register(options: creation)
            credential.response.transports = ["hybrid", "usb,nfc", "internal", "teleport", "hybrid"]
            let verified = try await Self.post(
                app, "/api/mobile/biometric/register/verify",
                try Self.json(VerifyBody(credential: credential, deviceInfo: nil)), bearer: token)
            #expect(verified.status == .ok, "\(verified.body.string)")
            let stored = try await app.hale.passkeys.list(for: account.id)
            #expect(stored.map(\.transports) == ["hybrid,internal"])
        }
    }

    @Test("more than 8 transports are refused")
    func tooManyTransports() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app)
            let options = try await Self.post(app, "/api/mobile/biometric/register/options", "{}", bearer: token)
            let creation = try JSONDecoder().decode(Envelope.self, from: Data(buffer: options.body)).options
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            var credential = passkey.register(options: creation)
            credential.response.transports = Array(repeating: "usb", count: 9)
            let refused = try await Self.post(
                app, "/api/mobile/biometric/register/verify",
                try Self.json(VerifyBody(credential: credential, deviceInfo: nil)), bearer: token)
            #expect(refused.status == .badRequest)
            let error = try refused.coreError().error
            #expect(error.code == "MALFORMED_CREDENTIAL")
            #expect(error.message == "response.transports lists at most 8 transports")
        }
    }

    @Test(
        "a passkey's new name keeps the name rule",
        arguments: [
            #"{"name":"\#(String(repeating: "x", count: 101))"}"#, #"{"name":"Work\u0009phone"}"#,
            #"{"name":"\u2003"}"#,
        ])
    func rename(body: String) async throws {
        try await withHale(settings: Self.settings) { app in
            let (account, token) = try await makeAccount(app)
            let options = try await Self.post(app, "/api/mobile/biometric/register/options", "{}", bearer: token)
            let creation = try JSONDecoder().decode(Envelope.self, from: Data(buffer: options.body)).options
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            _ = try await Self.post(
                app, "/api/mobile/biometric/register/verify",
                try Self.json(VerifyBody(credential: passkey.register(options: creation), deviceInfo: nil)),
                bearer: token)
            let id = try #require(try await app.hale.passkeys.list(for: account.id).first?.id)
            let response = try await app.testing().sendRequest(
                .PATCH, "/api/mobile/biometric/passkeys/\(id)", headers: .json(bearer: token), body: .json(body))
            #expect(response.status == .badRequest)
            #expect(try response.coreError().error.message == "name \(Self.nameRule)")
        }
    }

    struct Envelope: Decodable {
        let options: CreationOptions
    }

    struct VerifyBody: Encodable {
        let credential: RegistrationResponseJSON
        let deviceInfo: HaleServer.PasskeyDevice?
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}
