import Foundation
import HaleClient
import HaleTesting
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// The account page's own surface, `/account/api`, in process: its cookie session, CSRF token and origin check,
/// and the ceremonies and management it adds to the JSON APIs' handlers.
@Suite("Account page: sessions, CSRF and ceremonies")
struct AccountPageTests {
    @Test(arguments: TestDatabase.available)
    func signUpOpensASessionHeldInAnHttpOnlyStrictCookie(database: TestDatabase) async throws {
        try await withHale(on: database, settings: PageVisitor.settings) { app in
            var browser = try PageVisitor(app)
            let signedUp = try await browser.signUp()
            let session = try await browser.send(.GET, "/account/api/session")
            #expect(session.status == .ok)
            let body = try JSONDecoder().decode(PageVisitor.SessionBody.self, from: Data(buffer: session.body))
            #expect(body.sessionId == signedUp.sessionId)
            #expect(body.account.id == signedUp.account.id)
            #expect(body.csrfToken == signedUp.csrfToken)

            let sessionID = try #require(SessionID(body.sessionId))
            let stored = try #require(try await app.hale.sessions.find(sessionID))
            #expect(stored.signInMethod == "passkey")
            #expect(stored.deviceId?.description == body.deviceId)
            let cookie = try #require(browser.cookies[AccountPageCookies.session])
            #expect(!cookie.isEmpty)
            let hashes = try await app.hale.database.sql.raw("SELECT web_token_hash FROM sessions").all()
            let storedHashes = try hashes.map { try $0.decode(column: "web_token_hash", as: String?.self) }
            #expect(storedHashes == [OpaqueToken.hash(cookie)], "only the cookie's hash is stored")
        }
    }

    @Test(
        "cookies are Secure unless server.publicURL is http, HSTS only when https, whatever Host a proxy forwards",
        arguments: [("https://id.example.com", true, true), ("", true, false), ("http://id.example.com", false, false)])
    func cookiesFollowThePublicURL(publicURL: String, secure: Bool, hsts: Bool) async throws {
        var settings = PageVisitor.settings
        settings["server.publicURL"] = publicURL
        try await withHale(settings: settings) { app in
            // nginx's `proxy_pass http://127.0.0.1:8080` forwards its upstream's address as the Host.
            for host in ["id.example.com", "localhost:8080", "127.0.0.1:8080"] {
                var browser = try PageVisitor(app)
                browser.host = host
                let options = try await browser.send(.POST, "/account/api/sign-up/options", json: ["displayName": "A"])
                let creation = try JSONDecoder().decode(
                    PageVisitor.Creation.self, from: Data(buffer: options.body))
                let response = try await browser.send(
                    .POST, "/account/api/sign-up",
                    json: ["credential": browser.passkey.register(options: creation.options)])
                let cookies = PageVisitor.setCookies(response)
                #expect(Set(cookies.map(\.name)) == [AccountPageCookies.session, AccountPageCookies.installation])
                for cookie in cookies {
                    let attributes = Set(cookie.attributes.map { $0.lowercased() })
                    #expect(attributes.contains("httponly"), "\(cookie.name) on \(host)")
                    #expect(attributes.contains("samesite=strict"), "\(cookie.name) on \(host)")
                    #expect(attributes.contains("path=/account"), "\(cookie.name) on \(host)")
                    #expect(attributes.contains("secure") == secure, "\(cookie.name) on \(host)")
                }
                let page = try await browser.send(.GET, "/account")
                let hstsHeader = page.headers.first(name: "Strict-Transport-Security")
                #expect(hstsHeader == (hsts ? "max-age=31536000" : nil), "on \(host)")
            }
        }
    }

    @Test func aStateChangingRequestNeedsThePagesCSRFToken() async throws {
        try await withHale(settings: PageVisitor.settings) { app in
            var browser = try PageVisitor(app)
            let signedUp = try await browser.signUp()
            let lastChanged = String(signedUp.csrfToken.dropLast()) + (signedUp.csrfToken.hasSuffix("A") ? "B" : "A")
            for token in [nil, "", "not-the-token", lastChanged] {
                var headers = HTTPHeaders()
                if let token { headers.add(name: "X-CSRF-Token", value: token) }
                let refused = try await browser.send(.POST, "/account/api/sign-out", csrf: false, headers: headers)
                #expect(refused.status == .forbidden)
                #expect(try refused.coreError().error.code == "CSRF_REJECTED")
                #expect(
                    try refused.coreError().error.message == "This request needs the page's CSRF token in X-CSRF-Token."
                )
            }
            #expect(try await browser.send(.GET, "/account/api/session").status == .ok, "nothing was signed out")
            #expect(try await browser.send(.POST, "/account/api/sign-out").status == .ok)
            #expect(try await browser.send(.GET, "/account/api/session").status == .unauthorized)
            let session = try #require(SessionID(signedUp.sessionId))
            #expect(try await app.hale.sessions.find(session)?.revokedAt != nil)
        }
    }

    @Test func anotherOriginIsRefusedBeforeAnythingIsRead() async throws {
        try await withHale(settings: PageVisitor.settings) { app in
            var browser = try PageVisitor(app)
            for path in ["/account/api/sign-in/options", "/account/api/sign-up/options", "/account/api/sign-out"] {
                let refused = try await browser.send(.POST, path, headers: ["Origin": "https://attacker.example"])
                #expect(refused.status == .forbidden, "\(path)")
                #expect(try refused.coreError().error.code == "CSRF_REJECTED", "\(path)")
            }
            #expect(try await browser.send(.POST, "/account/api/sign-in/options").status == .ok)
        }
    }

    @Test func thePageAndTheAPIsDoNotTakeEachOthersCredentials() async throws {
        try await withHale(settings: PageVisitor.settings) { app in
            let (_, token) = try await makeAccount(app)
            let bearer = try await app.testing().sendRequest(.GET, "/account/api/session", headers: .bearer(token))
            #expect(bearer.status == .unauthorized)
            #expect(try bearer.coreError().error.message == "Sign in on the account page first.")

            var browser = try PageVisitor(app)
            _ = try await browser.signUp()
            let cookie = try #require(browser.cookies[AccountPageCookies.session])
            let api = try await app.testing().sendRequest(
                .GET, "/api/v1/account", headers: ["Cookie": "\(AccountPageCookies.session)=\(cookie)"])
            #expect(api.status == .unauthorized)
            #expect(try api.coreError().error.code == "UNAUTHORIZED")
        }
    }

    @Test(arguments: TestDatabase.available)
    func signingInAgainFromOneBrowserLandsOnItsDevice(database: TestDatabase) async throws {
        try await withHale(on: database, settings: PageVisitor.settings) { app in
            var browser = try PageVisitor(app)
            let signedUp = try await browser.signUp()
            #expect(try await browser.send(.POST, "/account/api/sign-out").status == .ok)
            let response = try await browser.signIn()
            #expect(response.status == .ok, "\(response.body.string)")
            let signedIn = try browser.opened(response)
            #expect(signedIn.account.id == signedUp.account.id)
            #expect(signedIn.sessionId != signedUp.sessionId)
            #expect(signedIn.deviceId == signedUp.deviceId, "the installation cookie names the browser's device")

            let sessions = try await browser.send(.GET, "/account/api/sessions")
            let list = try JSONDecoder().decode(AccountPageSessionList.self, from: Data(buffer: sessions.body))
            #expect(list.sessions.map(\.id) == [signedIn.sessionId])
            #expect(list.sessions.map(\.current) == [true])
            #expect(list.sessions.first?.platform == "web")
        }
    }

    @Test func anotherBrowserSignsInOnADeviceOfItsOwn() async throws {
        try await withHale(settings: PageVisitor.settings) { app in
            var phone = try PageVisitor(app)
            let signedUp = try await phone.signUp()
            var laptop = try PageVisitor(app)
            laptop.passkey = phone.passkey
            let signedIn = try laptop.opened(try await laptop.signIn())
            #expect(signedIn.account.id == signedUp.account.id)
            #expect(signedIn.deviceId != signedUp.deviceId)

            // The phone ends the laptop's session; the laptop's cookie stops working at once.
            let ended = try await phone.send(.DELETE, "/account/api/sessions/\(signedIn.sessionId)")
            #expect(ended.status == .ok)
            #expect(try await laptop.send(.GET, "/account/api/session").status == .unauthorized)
            #expect(try await phone.send(.GET, "/account/api/session").status == .ok)
            let again = try await phone.send(.DELETE, "/account/api/sessions/\(signedIn.sessionId)")
            #expect(again.status == .notFound)
        }
    }

    @Test(arguments: TestDatabase.available)
    func deletingTheAccountNeedsOneOfItsOwnPasskeys(database: TestDatabase) async throws {
        try await withHale(on: database, settings: PageVisitor.settings) { app in
            var owner = try PageVisitor(app)
            let account = try await owner.signUp(displayName: "Owner")
            var stranger = try PageVisitor(app)
            _ = try await stranger.signUp(displayName: "Stranger")

            let ceremony = try await owner.ceremony("/account/api/account/delete/options")
            let refused = try await owner.send(
                .POST, "/account/api/account/delete",
                json: PageVisitor.SignIn(
                    ceremony: ceremony.ceremony, credential: stranger.passkey.assert(options: ceremony.options)))
            #expect(refused.status == .unauthorized)
            #expect(try refused.coreError().error.code == "PASSKEY_AUTHENTICATION_FAILED")
            let id = try #require(AccountID(account.account.id))
            #expect(try await app.hale.accounts.find(id) != nil)

            let fresh = try await owner.ceremony("/account/api/account/delete/options")
            let deleted = try await owner.send(
                .POST, "/account/api/account/delete",
                json: PageVisitor.SignIn(
                    ceremony: fresh.ceremony, credential: owner.passkey.assert(options: fresh.options)))
            #expect(deleted.status == .ok, "\(deleted.body.string)")
            #expect(try await app.hale.accounts.find(id) == nil)
            #expect(owner.cookies[AccountPageCookies.session] == nil, "the answer expires the cookie")
        }
    }

    @Test func aPasskeyAddedOnThePageIsNamedByItsProvider() async throws {
        try await withHale(settings: PageVisitor.settings) { app in
            var browser = try PageVisitor(app)
            _ = try await browser.signUp()
            let options = try await browser.send(.POST, "/account/api/passkeys/options")
            let creation = try JSONDecoder().decode(PageVisitor.Creation.self, from: Data(buffer: options.body))
            var googlePasswordManager = SoftwarePasskey(rpID: "localhost", origin: PageVisitor.origin)
            let aaguid = try #require(UUID(uuidString: "EA9B8D66-4D01-1D21-3CE4-B6B48CB575D4"))
            googlePasswordManager.aaguid = withUnsafeBytes(of: aaguid.uuid) { Array($0) }
            let added = try await browser.send(
                .POST, "/account/api/passkeys",
                json: AccountPageRegistration(
                    credential: googlePasswordManager.register(options: creation.options),
                    browser: AccountPageBrowser(deviceName: "Chrome on Android", osVersion: nil)))
            #expect(added.status == .created, "\(added.body.string)")
            let passkey = try added.json()
            #expect(passkey["provider"] as? String == "Google Password Manager")
            #expect(passkey["name"] as? String == "Chrome on Android")
            let list = try await browser.send(.GET, "/account/api/passkeys")
            let providers = try (list.json()["passkeys"] as? [[String: Any]] ?? []).map { $0["provider"] as? String }
            #expect(providers.sorted { ($0 ?? "") < ($1 ?? "") } == [nil, "Google Password Manager"])
        }
    }

    @Test(arguments: TestDatabase.available)
    func aDeviceTheSDKRegisteredIsOnThePage(database: TestDatabase) async throws {
        try await withHale(on: database, settings: PageVisitor.settings) { app in
            var browser = try PageVisitor(app)
            let signedUp = try await browser.signUp()
            let account = try #require(AccountID(signedUp.account.id))
            // The app signed in just now (a device added with an older token is refused: CredentialChanges).
            let token = try await freshSignIn(app, account)
            try await withServedClient(app, token: token) { client in
                let device = HaleClient.DeviceDescription(
                    name: "Pixel 8", fingerprint: "android-\(UUID().uuidString.prefix(8))", convention: .android)
                _ = try await client.registerDevice(SoftwareDeviceKey(), device)
            }
            let devices = try await browser.send(.GET, "/account/api/devices")
            let listed = try (devices.json()["devices"] as? [[String: Any]] ?? []).map {
                "\($0["name"] as? String ?? "?") \(($0["signInMethods"] as? [String]) ?? [])"
            }
            #expect(listed.sorted() == ["Pixel 8 [\"device_key\"]", "Web browser [\"passkey\"]"].sorted())
        }
    }

    @Test func signingOutEverywhereEndsEverySessionAndToken() async throws {
        try await withHale(settings: PageVisitor.settings) { app in
            var browser = try PageVisitor(app)
            let signedUp = try await browser.signUp()
            let account = try #require(AccountID(signedUp.account.id))
            let token = try await app.hale.personalAccessTokens.create(for: account, name: "cli").token
            var other = try PageVisitor(app)
            other.passkey = browser.passkey
            _ = try other.opened(try await other.signIn())

            let response = try await browser.send(.POST, "/account/api/sign-out-everywhere")
            #expect(response.status == .ok)
            #expect(browser.cookies[AccountPageCookies.session] == nil)
            #expect(try await other.send(.GET, "/account/api/session").status == .unauthorized)
            let api = try await app.testing().sendRequest(.GET, "/api/v1/account", headers: .bearer(token))
            #expect(api.status == .unauthorized)
            #expect(try await app.hale.sessions.active(of: account).isEmpty)
        }
    }

    @Test("after the window, adding a passkey or signing out everywhere needs a step-up with the page's passkey")
    func stepUpOnThePage() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: PageVisitor.settings) { app in
            var browser = try PageVisitor(app)
            _ = try await browser.signUp()
            time.advance(.seconds(301))
            for path in ["/account/api/passkeys/options", "/account/api/sign-out-everywhere"] {
                let refused = try await browser.send(.POST, path)
                #expect(refused.status == .unauthorized, "\(path)")
                #expect(try refused.coreError().error.code == "FRESH_SIGN_IN_REQUIRED", "\(path)")
            }
            let ceremony = try await browser.ceremony("/account/api/step-up/options")
            let steppedUp = try await browser.send(
                .POST, "/account/api/step-up",
                json: PageVisitor.SignIn(
                    ceremony: ceremony.ceremony, credential: browser.passkey.assert(options: ceremony.options)))
            #expect(steppedUp.status == .ok, "\(steppedUp.body.string)")
            #expect(try await browser.send(.POST, "/account/api/passkeys/options").status == .ok)
            #expect(try await browser.send(.POST, "/account/api/sign-out-everywhere").status == .ok)
        }
    }

    @Test(
        "a recovery code on the page: a cookie that adds one passkey and reaches nothing else",
        arguments: TestDatabase.available)
    func recoveryOnThePage(database: TestDatabase) async throws {
        try await withHale(on: database, settings: PageVisitor.settings) { app in
            var owner = try PageVisitor(app)
            let signedUp = try await owner.signUp()
            let account = try #require(AccountID(signedUp.account.id))
            let code = try #require(try await app.hale.recoveryCodes.generate(for: account, session: nil).first)

            var newBrowser = try PageVisitor(app)
            let recovered = try await newBrowser.send(.POST, "/account/api/recover", json: ["code": code])
            #expect(recovered.status == .ok, "\(recovered.body.string)")
            #expect(try recovered.json()["recovery"] as? Bool == true)
            _ = try newBrowser.opened(recovered)
            for path in ["/account/api/passkeys", "/account/api/devices", "/account/api/recovery-codes"] {
                let refused = try await newBrowser.send(.GET, path)
                #expect(refused.status == .forbidden, "\(path)")
                #expect(try refused.coreError().error.code == "RECOVERY_SESSION_RESTRICTED", "\(path)")
            }
            #expect(try await newBrowser.send(.POST, "/account/api/sign-out-everywhere").status == .forbidden)
            let options = try await newBrowser.send(.POST, "/account/api/passkeys/options")
            let creation = try JSONDecoder().decode(PageVisitor.Creation.self, from: Data(buffer: options.body))
            var passkey = SoftwarePasskey(rpID: "localhost", origin: PageVisitor.origin)
            let added = try await newBrowser.send(
                .POST, "/account/api/passkeys", json: ["credential": passkey.register(options: creation.options)])
            #expect(added.status == .created, "\(added.body.string)")
            #expect(try await newBrowser.send(.GET, "/account/api/session").status == .unauthorized)
            #expect(try await app.hale.passkeys.list(for: account).count == 2)
            let reused = try await newBrowser.send(.POST, "/account/api/recover", json: ["code": code])
            #expect(try reused.coreError().error.code == "RECOVERY_CODE_INVALID")
        }
    }
}
