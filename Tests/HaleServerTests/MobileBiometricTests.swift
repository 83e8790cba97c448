import ByteEncoding
import CBOR
import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// Seed 000's passkey endpoints, driven as the iOS and Android apps drive them, with a software passkey.
@Suite("HTTP: seed 000 passkeys")
struct MobileBiometricTests {
    static let settings = ["passkeys.rpId": "localhost", "passkeys.origins": "http://localhost:8080"]

    private func post(_ app: Application, _ path: String, _ body: some Encodable, bearer: String? = nil) async throws
        -> TestingHTTPResponse
    {
        let data = try JSONEncoder().encode(body)
        return try await app.testing().sendRequest(
            .POST, path, headers: .json(bearer: bearer), body: ByteBuffer(data: data))
    }

    private func decode<T: Decodable>(_ type: T.Type, _ response: TestingHTTPResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(buffer: response.body))
    }

    struct Options<T: Decodable>: Decodable {
        let options: T
        let uid: String?
    }

    struct SignIn: Decodable {
        let token: String
        let refreshToken: String
        let accountId: String
    }

    /// Registers a passkey for a signed-in account, as the apps do with a bearer token.
    private func registerPasskey(_ app: Application, bearer: String, passkey: inout SoftwarePasskey) async throws {
        let device = ["platform": "android", "osVersion": "14", "deviceName": "Pixel 8"]
        let optionsResponse = try await post(app, "/api/mobile/biometric/register/options", device, bearer: bearer)
        #expect(optionsResponse.status == .ok)
        let options = try decode(Options<CreationOptions>.self, optionsResponse).options
        let credential = passkey.register(options: options)
        let verify = try await post(
            app, "/api/mobile/biometric/register/verify",
            RegisterBody(credential: credential, deviceInfo: PasskeyDevice(platform: "android", deviceName: "Pixel 8")),
            bearer: bearer)
        #expect(verify.status == .ok, "\(verify.body.string)")
    }

    struct RegisterBody: Encodable {
        let credential: RegistrationResponseJSON
        let deviceInfo: HaleServer.PasskeyDevice?
    }

    struct AuthenticateBody: Encodable {
        let credential: AuthenticationResponseJSON
        let uid: String
    }

    private func signIn(_ app: Application, passkey: inout SoftwarePasskey, email: String? = nil) async throws
        -> TestingHTTPResponse
    {
        let body = email.map { ["email": $0] } ?? [:]
        let options = try decode(
            Options<RequestOptions>.self, try await post(app, "/api/mobile/biometric/authenticate/options", body))
        let assertion = passkey.assert(options: options.options)
        return try await post(
            app, "/api/mobile/biometric/authenticate/verify",
            AuthenticateBody(credential: assertion, uid: try #require(options.uid)))
    }

    @Test(arguments: TestDatabase.available)
    func registerThenSignIn(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let (account, token) = try await makeAccount(app)
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await registerPasskey(app, bearer: token, passkey: &passkey)
            let response = try await signIn(app, passkey: &passkey, email: "person@example.com")
            #expect(response.status == .ok, "\(response.body.string)")
            let signedIn = try decode(SignIn.self, response)
            #expect(signedIn.accountId == account.id.description)
            let claims = try await app.hale.accessTokens.verify(signedIn.token)
            #expect(claims.signInMethod == "passkey")
            #expect(claims.sub.value == account.id.description)
            let again = try await signIn(app, passkey: &passkey)
            #expect(again.status == .ok)
        }
    }

    @Test(
        .enabled(if: COSEAlgorithm.mlDSA65.isAvailable, "ML-DSA needs iOS 26 or macOS 26 on Apple platforms"),
        arguments: TestDatabase.available, [COSEAlgorithm.mlDSA65, .mlDSA87])
    func registerThenSignInWithMLDSA(database: TestDatabase, algorithm: COSEAlgorithm) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let (account, token) = try await makeAccount(app)
            var passkey = try SoftwarePasskey(algorithm: algorithm, rpID: "localhost", origin: "http://localhost:8080")
            try await registerPasskey(app, bearer: token, passkey: &passkey)
            let rows = try await app.hale.database.sql.raw("SELECT public_key FROM passkey_credentials").all()
            let stored = try rows.map { try $0.decode(column: "public_key", as: String.self) }
            #expect(stored == [Base64URL.encode(passkey.stored().publicKey)], "the whole AKP key is kept")
            for _ in 0..<2 {
                let response = try await signIn(app, passkey: &passkey)
                #expect(response.status == .ok, "\(response.body.string)")
                #expect(try decode(SignIn.self, response).accountId == account.id.description)
            }
        }
    }

    @Test func anMLDSA44PasskeyIsRefusedWithItsReason() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app)
            let passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            let optionsResponse = try await post(
                app, "/api/mobile/biometric/register/options", ["platform": "ios"], bearer: token)
            let options = try decode(Options<CreationOptions>.self, optionsResponse).options
            let key: CBORValue = [1: 7, 3: -48, -1: .byteString([UInt8](repeating: 7, count: 1312))]
            let credential = passkey.registration(
                challenge: Array(try #require(Base64URL.decode(options.challenge))),
                authenticatorData: passkey.authenticatorData(attested: true, publicKey: key))
            let response = try await post(
                app, "/api/mobile/biometric/register/verify", RegisterBody(credential: credential, deviceInfo: nil),
                bearer: token)
            #expect(response.status == .badRequest)
            let error = try response.coreError().error
            #expect(error.code == "UNSUPPORTED_ALGORITHM")
            #expect(error.message == "ML-DSA-44 (-48) is not supported: swift-crypto does not implement it")
        }
    }

    @Test func theOptionsCarryWhatAndroidAndIOSRead() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app)
            let response = try await post(
                app, "/api/mobile/biometric/register/options",
                ["platform": "ios", "osVersion": "17.4", "deviceName": "iPhone"], bearer: token)
            let json = try response.json()
            let options = try #require(json["options"] as? [String: Any])
            #expect((options["challenge"] as? String)?.isEmpty == false)
            let user = try #require(options["user"] as? [String: Any])
            #expect(Base64URL.decode(try #require(user["id"] as? String))?.count == 32)
            #expect(user["name"] as? String == "person@example.com")
            #expect((options["rp"] as? [String: Any])?["id"] as? String == "localhost")
            let algorithms = (options["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int }
            let mlDSA = COSEAlgorithm.mlDSA65.isAvailable ? [-49, -50] : []
            #expect(algorithms == [-7, -8, -257] + mlDSA, "ES256 first; ML-DSA-65 and ML-DSA-87 after the classical")
            #expect((options["authenticatorSelection"] as? [String: Any])?["residentKey"] as? String == "required")
            #expect((options["extensions"] as? [String: Any])?["credProps"] as? Bool == true)
        }
    }

    @Test func passkeyFirstSignUpCreatesTheAccountOnlyWhenThePasskeyVerifies() async throws {
        try await withHale(settings: Self.settings) { app in
            let options = try decode(
                Options<CreationOptions>.self,
                try await post(
                    app, "/api/mobile/biometric/register/options",
                    ["displayName": "Noa", "email": "Noa@Example.com"]))
            #expect(try await app.hale.accounts.find(email: try AccountEmail("noa@example.com")) == nil)
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            let response = try await post(
                app, "/api/mobile/biometric/register/verify",
                RegisterBody(credential: passkey.register(options: options.options), deviceInfo: nil))
            #expect(response.status == .ok, "\(response.body.string)")
            let body = try response.json()
            let token = try #require(body["token"] as? String)
            let accountText = try #require(body["accountId"] as? String)
            let accountID = try #require(AccountID(accountText))
            let account = try #require(try await app.hale.accounts.find(accountID))
            #expect(account.email == nil, "an email given at sign-up is not verified and never links accounts")
            #expect(account.unverifiedEmail == "noa@example.com")
            #expect(try await app.hale.accessTokens.verify(token).sub.value == accountID.description)
            let signIn = try await signIn(app, passkey: &passkey)
            #expect(try decode(SignIn.self, signIn).accountId == accountID.description)
        }
    }

    @Test func aReplayedCredentialCreatesNoAccount() async throws {
        try await withHale(settings: Self.settings) { app in
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            for attempt in 0..<2 {
                let options = try decode(
                    Options<CreationOptions>.self,
                    try await post(app, "/api/mobile/biometric/register/options", ["displayName": "Noa"]))
                let response = try await post(
                    app, "/api/mobile/biometric/register/verify",
                    RegisterBody(credential: passkey.register(options: options.options), deviceInfo: nil))
                #expect(response.status == (attempt == 0 ? .ok : .conflict))
            }
            let accounts = try await app.hale.database.sql.raw("SELECT id FROM accounts").all()
            #expect(accounts.count == 1)
        }
    }

    @Test func signUpNeedsADisplayName() async throws {
        try await withHale(settings: Self.settings) { app in
            let response = try await post(app, "/api/mobile/biometric/register/options", ["platform": "ios"])
            #expect(response.status == .badRequest)
        }
    }

    @Test func knownAndUnknownEmailsGetTheSameAnswer() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app)
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await registerPasskey(app, bearer: token, passkey: &passkey)
            func shape(_ email: String?) async throws -> [String] {
                let body = email.map { ["email": $0] } ?? [:]
                let json = try (try await post(app, "/api/mobile/biometric/authenticate/options", body)).json()
                let options = try #require(json["options"] as? [String: Any])
                #expect((options["allowCredentials"] as? [Any])?.isEmpty == true)
                return (json.keys.sorted() + options.keys.sorted())
            }
            let known = try await shape("person@example.com")
            #expect(try await shape("nobody@example.com") == known)
            #expect(try await shape(nil) == known)
            let malformed = try await post(app, "/api/mobile/biometric/authenticate/options", ["email": "not-an-email"])
            #expect(malformed.status == .badRequest)
        }
    }

    @Test func aReplayedAssertionIsRefused() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app)
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await registerPasskey(app, bearer: token, passkey: &passkey)
            let options = try decode(
                Options<RequestOptions>.self,
                try await post(app, "/api/mobile/biometric/authenticate/options", [String: String]()))
            let body = AuthenticateBody(
                credential: passkey.assert(options: options.options), uid: try #require(options.uid))
            #expect(try await post(app, "/api/mobile/biometric/authenticate/verify", body).status == .ok)
            let replay = try await post(app, "/api/mobile/biometric/authenticate/verify", body)
            #expect(replay.status == .badRequest)
            #expect(try replay.coreError().error.code == "INVALID_CHALLENGE")
        }
    }

    @Test func aForgedOrMismatchedAssertionGetsOneGenericAnswer() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app)
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await registerPasskey(app, bearer: token, passkey: &passkey)
            let stranger = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            for forge in [0, 1, 2] {
                let options = try decode(
                    Options<RequestOptions>.self,
                    try await post(app, "/api/mobile/biometric/authenticate/options", [String: String]()))
                let challenge = Array(try #require(Base64URL.decode(options.options.challenge)))
                var assertion = passkey.assertion(challenge: challenge, signCount: 50)
                var uid = try #require(options.uid)
                switch forge {
                case 0: assertion.response.signature = Base64URL.encode(passkey.sign([1]))
                case 1: assertion = stranger.assertion(challenge: challenge)
                default: uid = ServerChallengeID.random().description
                }
                let response = try await post(
                    app, "/api/mobile/biometric/authenticate/verify", AuthenticateBody(credential: assertion, uid: uid))
                #expect(response.status == .unauthorized)
                #expect(try response.coreError().error.code == "PASSKEY_AUTHENTICATION_FAILED")
            }
        }
    }

    /// §7.2 step 6: a returned user handle must be the passkey's account's. The signature does not cover it, so only
    /// the ownership check can refuse another account's handle.
    @Test(arguments: TestDatabase.available)
    func aUserHandleMustBeThePasskeysAccounts(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let (_, ownerToken) = try await makeAccount(app, email: "owner@example.com")
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await registerPasskey(app, bearer: ownerToken, passkey: &passkey)
            let (_, otherToken) = try await makeAccount(app, email: "other@example.com")
            var other = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await registerPasskey(app, bearer: otherToken, passkey: &other)
            let handles: [(String?, HTTPStatus)] = [
                (Base64URL.encode(try #require(other.userHandle)), .unauthorized),
                (Base64URL.encode(try #require(passkey.userHandle)), .ok),
                (nil, .ok),
            ]
            for (count, (handle, status)) in handles.enumerated() {
                let options = try decode(
                    Options<RequestOptions>.self,
                    try await post(app, "/api/mobile/biometric/authenticate/options", [String: String]()))
                let challenge = Array(try #require(Base64URL.decode(options.options.challenge)))
                var assertion = passkey.assertion(challenge: challenge, signCount: UInt32(10 + count))
                assertion.response.userHandle = handle
                let response = try await post(
                    app, "/api/mobile/biometric/authenticate/verify",
                    AuthenticateBody(credential: assertion, uid: try #require(options.uid)))
                #expect(response.status == status, "\(handle ?? "no handle")")
                if status == .unauthorized {
                    #expect(try response.coreError().error.code == "PASSKEY_AUTHENTICATION_FAILED")
                }
            }
        }
    }

    @Test func aSignUpCeremonyCannotBeCompletedBySomeoneSignedIn() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app)
            let options = try decode(
                Options<CreationOptions>.self,
                try await post(app, "/api/mobile/biometric/register/options", ["displayName": "Noa"]))
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            let response = try await post(
                app, "/api/mobile/biometric/register/verify",
                RegisterBody(credential: passkey.register(options: options.options), deviceInfo: nil), bearer: token)
            #expect(response.status == .badRequest)
            #expect(try response.coreError().error.code == "INVALID_CHALLENGE")
        }
    }

    @Test func aRegistrationFromTheWrongOriginNamesTheReason() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app)
            let options = try decode(
                Options<CreationOptions>.self,
                try await post(app, "/api/mobile/biometric/register/options", ["platform": "ios"], bearer: token))
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "https://evil.example")
            let response = try await post(
                app, "/api/mobile/biometric/register/verify",
                RegisterBody(credential: passkey.register(options: options.options), deviceInfo: nil), bearer: token)
            #expect(response.status == .badRequest)
            #expect(try response.coreError().error.code == "ORIGIN_NOT_ALLOWED")
        }
    }

    @Test func devicesRenameAndDelete() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeSignedInAccount(app)
            var first = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            var second = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await registerPasskey(app, bearer: token, passkey: &first)
            try await registerPasskey(app, bearer: token, passkey: &second)
            let devices = try await app.testing().sendRequest(
                .GET, "/api/mobile/biometric/devices", headers: .bearer(token))
            let json = try devices.json()
            let passkeys = try #require(json["passkeys"] as? [[String: Any]])
            #expect(passkeys.count == 2)
            #expect((json["devices"] as? [[String: Any]])?.first?["deviceName"] as? String == "Pixel 8")
            let firstID = try #require(passkeys[0]["id"] as? String)
            let secondID = try #require(passkeys[1]["id"] as? String)

            let renamed = try await app.testing().sendRequest(
                .PATCH, "/api/mobile/biometric/passkeys/\(firstID)", headers: .json(bearer: token),
                body: .json(#"{"name":"Work phone"}"#))
            #expect(renamed.status == .ok)
            #expect((try renamed.json()["passkeys"] as? [[String: Any]])?.first?["name"] as? String == "Work phone")

            let (_, stranger) = try await makeSignedInAccount(app, email: "stranger@example.com")
            let theirs = try await app.testing().sendRequest(
                .DELETE, "/api/mobile/biometric/passkeys/\(firstID)", headers: .bearer(stranger))
            #expect(theirs.status == .notFound)

            let deleted = try await app.testing().sendRequest(
                .DELETE, "/api/mobile/biometric/passkeys/\(firstID)", headers: .bearer(token))
            #expect(deleted.status == .ok)
            let last = try await app.testing().sendRequest(
                .DELETE, "/api/mobile/biometric/passkeys/\(secondID)", headers: .bearer(token))
            #expect(last.status == .conflict)
            #expect(try last.coreError().error.code == "LAST_SIGN_IN_METHOD")
            let confirmed = try await app.testing().sendRequest(
                .DELETE, "/api/mobile/biometric/passkeys/\(secondID)?confirm=true", headers: .bearer(token))
            #expect(confirmed.status == .ok)
            let signIn = try await signIn(app, passkey: &second)
            #expect(signIn.status == .unauthorized)
        }
    }

    @Test func associationFilesComeFromConfiguration() async throws {
        let fingerprint =
            "FA:C6:17:45:DC:09:03:78:6F:B9:ED:E6:2A:96:2B:39:9F:73:48:F0:BB:6F:89:9B:83:32:66:75:91:03:3B:9C"
        let settings = [
            "apps.apple": "ABCDE12345.co.il.petwash.app",
            "apps.android": "co.il.petwash.app=\(fingerprint.lowercased())",
        ]
        try await withHale(settings: settings) { app in
            let apple = try await app.testing().sendRequest(.GET, "/.well-known/apple-app-site-association")
            #expect(apple.headers.contentType == .json)
            let webcredentials = try #require(try apple.json()["webcredentials"] as? [String: Any])
            #expect(webcredentials["apps"] as? [String] == ["ABCDE12345.co.il.petwash.app"])

            let android = try await app.testing().sendRequest(.GET, "/.well-known/assetlinks.json")
            let statements = try JSONSerialization.jsonObject(with: Data(buffer: android.body)) as? [[String: Any]]
            let statement = try #require(statements?.first)
            #expect(
                (statement["relation"] as? [String])?.contains("delegate_permission/common.get_login_creds") == true)
            #expect(
                (statement["relation"] as? [String])?.contains("delegate_permission/common.handle_all_urls") == true)
            let target = try #require(statement["target"] as? [String: Any])
            #expect(target["package_name"] as? String == "co.il.petwash.app")
            #expect(target["sha256_cert_fingerprints"] as? [String] == [fingerprint])
            #expect(
                app.hale.passkeys.relyingParty.origins.contains(
                    "android:apk-key-hash:-sYXRdwJA3hvue3mKpYrOZ9zSPC7b4mbgzJmdZEDO5w"))
        }
    }
}
