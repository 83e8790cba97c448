import Foundation
import HaleClient
import HaleServer
import HaleTesting
import SQLKit
import Testing

/// A whole journey against `hale serve` at `logging.level: trace`, on each database, with fake identity providers
/// and push gateways on loopback: afterwards, not one of the secrets it used — tokens, keys, codes, push tokens —
/// nor one of its health values is in the log.
@Suite("hale serve, as a process: nothing secret is logged at trace", .serialized)
struct LogHygieneProcessTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Health values no log line could hold by chance: no other number in a log is written with these digits.
    static let steps = 73_519
    static let distance = 4_817.37
    static let sampleValue = 6_241.0

    @Test(arguments: TestDatabase.available)
    func aWholeJourneyAtTraceLeavesNoSecretInTheLog(database: TestDatabase) async throws {
        let provider = try await FakeSocialProvider.start()
        let firebase = try await FakeFirebase.start()
        let fcm = try await FakeFCM.start()
        let apns = try await FakeAPNs.start()
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await database.provision()
        var settings = provider.settings.merging(fcm.settings) { $1 }.merging(apns.settings) { $1 }
            .merging(firebase.settings) { $1 }
        settings["logging.level"] = "trace"
        settings["appAttest.developmentMode"] = "true"
        settings["push.deliveryInterval"] = "1s"
        var environment = ["HALE_DATABASE_URL": url]
        for (path, value) in settings {
            environment[try #require(ConfigKey.named(path)).environmentVariable] = value
        }
        var secrets = Secrets()
        secrets.add(settings["socialSignIn.facebook.appSecret"], settings["push.apns.privateKey"])
        secrets.add(Self.privateKey(inServiceAccount: settings["push.fcm.serviceAccount"]))
        secrets.add(Self.privateKey(inServiceAccount: settings["firebase.serviceAccount"]))
        let adminKey = try await Self.json(
            hale.run(["admin-keys", "create", "--name", "journey"], environment: environment))
        secrets.add(adminKey["key"] as? String)
        let server = try await hale.serve(environment: environment)

        let journey = Journey(baseURL: server.baseURL, provider: provider, firebase: firebase)
        try await journey.run(adminKey: try #require(adminKey["key"] as? String), into: &secrets)
        try await Self.waitForPushes(fcm: fcm, apns: apns)
        secrets.add(fcm.received.map(\.accessToken) + apns.received.map(\.providerToken))
        await server.stop()
        secrets.add(try await Self.signingKeys(databaseURL: url))

        let log = try String(contentsOf: server.log, encoding: .utf8)
        let atTrace = log.contains(" trace ") || log.contains(" debug ")
        #expect(atTrace, "the log is not at trace: the test proves nothing")
        let leaked = secrets.all.filter { log.contains($0) }.map { "\($0.prefix(12))…" }
        #expect(leaked.isEmpty, "secrets reached the log: \(leaked)")
        let values = [String(Self.steps), "4817.37", "6241"].filter { Self.containsNumber($0, in: log) }
        #expect(values.isEmpty, "health values reached the log: \(values)")
        await provider.stop()
        await firebase.stop()
        await fcm.stop()
        await apns.stop()
        await dispose()
    }

    /// The secrets the journey used, each long enough that finding it in the log is no coincidence.
    struct Secrets {
        private(set) var all: [String] = []

        mutating func add(_ values: String?...) {
            add(values.compactMap { $0 })
        }

        mutating func add(_ values: [String]) {
            for value in values where value.count >= 16 {
                all.append(value)
                // A token's secret half, and a PEM's body lines, on their own.
                if let secretHalf = value.split(separator: "|").last, value.contains("|") {
                    all.append(String(secretHalf))
                }
                all += value.split(separator: "\n").map(String.init).filter { $0.count >= 40 && !$0.hasPrefix("-----") }
            }
        }
    }

    /// The steps a person's apps take, with the SDK.
    struct Journey {
        let baseURL: URL
        let provider: FakeSocialProvider
        let firebase: FakeFirebase

        func run(adminKey: String, into secrets: inout Secrets) async throws {
            let client = HaleClient(testing: baseURL)
            let origin = "http://localhost:8080"
            let phone = SoftwarePasskeyAuthenticator(SoftwarePasskey(rpID: "localhost", origin: origin))
            let laptop = SoftwarePasskeyAuthenticator(SoftwarePasskey(rpID: "localhost", origin: origin))
            let registered = try await client.signUp(
                displayName: "Journey", with: phone, device: PasskeyDevice(platform: "ios", deviceName: "Phone"))
            let accountID = try #require(registered.accountId)
            secrets.add(await Self.tokens(of: client))

            let firstKey = SoftwareDeviceKey()
            let first = HaleClient.DeviceDescription(name: "Phone", fingerprint: "journey-\(UUID())", convention: .iOS)
            let firstID = try await client.registerDevice(firstKey, first)
            let secondKey = SoftwareDeviceKey()
            let second = HaleClient.DeviceDescription(
                name: "Tablet", fingerprint: "journey-\(UUID())", convention: .android)
            let secondID = try await client.registerDevice(secondKey, second)
            let fcmToken = "fcm-journey-\(UUID().uuidString)-\(UUID().uuidString)"
            let apnsToken = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            try await client.setPushToken(deviceId: firstID, fcmToken: fcmToken)
            try await client.setPushToken(deviceId: secondID, apnsToken: apnsToken)
            secrets.add(fcmToken, apnsToken)

            try await client.signIn(with: firstKey, first)
            secrets.add(await Self.tokens(of: client))
            _ = try await client.refreshSession()
            secrets.add(await Self.tokens(of: client))
            _ = try await client.addPasskey(with: laptop, device: PasskeyDevice(platform: "web"))
            let handoff = try await client.issueHandoff()
            secrets.add(handoff.code)

            // A nonce the server handed out is a bearer of one attestation: never logged either.
            secrets.add(try await client.attestationNonce().nonce)
            let attester = try await client.developmentAppAttester()
            let keyID = try await client.registerAppAttestKey(with: attester)
            _ = try await client.submitHealth(
                DailyHealthTotals(
                    steps: LogHygieneProcessTests.steps, duration: 1_800, calories: 321.5,
                    distance: LogHygieneProcessTests.distance),
                source: "journey", attestedWith: attester, keyID: keyID)
            _ = try await client.grantHealthConsent(platform: "apple", permissions: ["steps"])
            let start = Date().addingTimeInterval(-7_200)
            _ = try await client.sync(
                provider: "healthkit",
                samples: [
                    HealthSyncSample(
                        id: UUID().uuidString, type: "steps", value: LogHygieneProcessTests.sampleValue, unit: "count",
                        start: start, end: start.addingTimeInterval(3_600))
                ])
            _ = try await client.createConfirmation(
                accountId: accountID, actionType: "payment.approve", actionPayload: Data(#"{"amount": 12}"#.utf8),
                adminKey: adminKey)

            let idToken = try provider.googleIDToken(subject: "journey-\(UUID())")
            secrets.add(idToken)
            let social = HaleClient(testing: baseURL)
            try await social.signIn(.google, token: idToken, deviceTokens: ["fcm-social-\(UUID().uuidString)"])
            secrets.add(await social.sessionTokens?.accessToken)
            _ = try await social.account()
            secrets.add(try await client.redeemHandoff(handoff.code))

            // Seed 000's Firebase app: its ID token as the bearer, then a passkey sign-in answering a custom token.
            let firebaseToken = try firebase.idToken(uid: "journey-\(UUID())", email: "journey-firebase@example.com")
            secrets.add(firebaseToken)
            let petWash = HaleClient(testing: baseURL)
            await petWash.restore(SessionTokens(accessToken: firebaseToken, refreshToken: nil))
            let petWashPhone = SoftwarePasskeyAuthenticator(SoftwarePasskey(rpID: "localhost", origin: origin))
            _ = try await petWash.addPasskey(with: petWashPhone, device: PasskeyDevice(platform: "ios"))
            let customToken = try await petWash.signInForFirebase(with: petWashPhone)
            let verified = customToken.flatMap { firebase.verifiedCustomToken($0) }
            #expect(verified != nil, "sign-in answered no custom token the service account signed")
            secrets.add(customToken)
            secrets.add(await Self.tokens(of: petWash))
        }

        private static func tokens(of client: HaleClient) async -> [String] {
            guard let tokens = await client.sessionTokens else { return [] }
            return [tokens.accessToken] + (tokens.refreshToken.map { [$0] } ?? [])
        }
    }

    /// Waits until each gateway has taken at least one message.
    static func waitForPushes(fcm: FakeFCM, apns: FakeAPNs) async throws {
        for _ in 0..<150 where fcm.received.isEmpty || apns.received.isEmpty {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(!fcm.received.isEmpty, "no message reached FCM")
        #expect(!apns.received.isEmpty, "no message reached APNs")
    }

    /// The access-token signing keys' PEMs, read from the database the server used and opened with its key.
    static func signingKeys(databaseURL: String) async throws -> [String] {
        var pems: [String] = []
        try await withHale(databaseURL: databaseURL) { app in
            let sealer = try #require(app.hale.sealer)
            pems = try await app.hale.database.sql.raw("SELECT kid, private_key_sealed FROM signing_keys").all()
                .map { row in
                    let kid = try row.decode(column: "kid", as: String.self)
                    let sealed = try row.decode(column: "private_key_sealed", as: String.self)
                    return try #require(sealer.openText(sealed, purpose: "signing-key:\(kid)"))
                }
        }
        #expect(!pems.isEmpty)
        return pems
    }

    static func privateKey(inServiceAccount json: String?) -> String? {
        guard let data = json?.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            return nil
        }
        return object["private_key"] as? String
    }

    static func json(_ run: (status: Int32, output: String)) throws -> [String: Any] {
        #expect(run.status == 0)
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] ?? [:]
    }

    /// Whether `number` appears in `text` as a number of its own, not inside a longer run of digits or letters (as
    /// in a request id's hex).
    static func containsNumber(_ number: String, in text: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: number, range: searchRange) {
            let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : " "
            let after = found.upperBound < text.endIndex ? text[found.upperBound] : " "
            if !before.isLetter, !before.isNumber, !after.isLetter, !after.isNumber { return true }
            searchRange = found.upperBound..<text.endIndex
        }
        return false
    }
}
