import ByteEncoding
import Foundation
import HaleServer
import HaleTesting
import HealthExport
import HealthSamples
import Testing

@testable import HaleClient

/// Every surface of the Swift client against `hale serve` running as its own process, on each database.
@Suite("HaleClient against hale serve: every surface", .serialized)
struct HaleClientSurfaceTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A software passkey for the server's default relying party.
    static func passkey() -> SoftwarePasskeyAuthenticator {
        SoftwarePasskeyAuthenticator(SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080"))
    }

    @Test(arguments: TestDatabase.available)
    func passkeysAccountAndSessions(database: TestDatabase) async throws {
        try await withServer(database) { server, _, _ in
            let client = HaleClient(testing: server.baseURL)
            let phone = Self.passkey()
            let signedUp = try await client.signUp(
                displayName: "Ana", email: "ana@example.com", with: phone,
                device: PasskeyDevice(platform: "ios", osVersion: "17.4", deviceName: "Ana's iPhone"))
            let account = try await client.account()
            // A sign-up's email is unverified, so the account has none yet.
            #expect(account.id == signedUp.accountId && account.email == nil)

            let laptop = Self.passkey()
            let added = try await client.addPasskey(with: laptop)
            let renamed = try await client.renamePasskey(added.id, to: "Laptop")
            #expect(Set(renamed.map(\.name)).contains("Laptop") && renamed.count == 2)

            try await client.signOut()
            await #expect(throws: HaleClientError.notSignedIn) { try await client.account() }
            try await client.signIn(with: laptop)
            #expect(try await client.account().id == account.id)
            #expect(await laptop.passkey.signCount == 1)
            let before = try #require(await client.sessionTokens)
            let refreshed = try await client.refreshSession()
            #expect(refreshed.refreshToken != before.refreshToken, "a passkey session refreshes like any other")

            let elsewhere = HaleClient(testing: server.baseURL)
            try await elsewhere.signIn(with: phone)
            try await elsewhere.signOutEverywhere()
            await #expect(throws: HaleClientError.notSignedIn) { try await client.account() }
            try await client.signIn(with: laptop)

            let groups = try await client.passkeyDevices()
            #expect(Set(groups.flatMap(\.passkeyIds)) == [signedUp.passkey.id, added.id])
            #expect(groups.contains { $0.deviceName == "Ana's iPhone" })

            let handoff = try await client.issueHandoff()
            let web = HaleClient(testing: server.baseURL)
            try await web.redeemHandoff(handoff.code)
            #expect(try await web.account().id == account.id)
            do {
                try await HaleClient(testing: server.baseURL).redeemHandoff(handoff.code)
                Issue.record("a hand-off code was redeemed twice")
            } catch HaleClientError.server(let status, _, _) {
                #expect((400..<500).contains(status))
            }

            try await client.deletePasskey(signedUp.passkey.id)
            do {
                try await client.deletePasskey(added.id)
                Issue.record("the last passkey was deleted without confirmation")
            } catch HaleClientError.server(let status, _, _) {
                #expect(status == 409 || status == 400)
            }
            #expect(try await client.passkeys().map(\.id) == [added.id])

            // A passkey the server never saw is refused with the core's error shape.
            do {
                try await HaleClient(testing: server.baseURL).signIn(with: Self.passkey())
                Issue.record("an unknown passkey signed in")
            } catch HaleClientError.server(let status, let code, _) {
                #expect(status == 401 && !code.isEmpty)
            }

            try await client.deleteAccount()
            #expect(await client.sessionTokens == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func devicesAndConfirmations(database: TestDatabase) async throws {
        try await withServer(database) { server, hale, environment in
            let client = HaleClient(testing: server.baseURL)
            let signedUp = try await client.signUp(displayName: "Bo", with: Self.passkey())
            let accountId = try #require(signedUp.accountId)
            let key = SoftwareDeviceKey()
            let device = HaleClient.DeviceDescription(
                name: "Bo's Pixel", fingerprint: "android-\(UUID().uuidString.prefix(8))", convention: .android)
            let deviceId = try await client.registerDevice(key, device)
            try await client.signIn(with: key, device)
            try await client.renameDevice(deviceId, to: "Pixel 8")
            try await client.setPushToken(deviceId: deviceId, fcmToken: "fcm-token-for-bo")
            let devices = try await client.devices()
            let listed = try #require(devices.first { $0.id == deviceId })
            #expect(listed.name == "Pixel 8" && listed.active && listed.keys.count == 1)
            #expect(listed.sessions.contains { $0.current })
            #expect(listed.pushTokens.map(\.provider) == ["fcm"] && listed.deviceType == "mobile")

            let adminKey = try await Self.adminKey(hale, environment)
            let asked = try await client.createConfirmation(
                accountId: accountId, actionType: "payment.approve",
                actionPayload: Data(#"{"amount": 4200, "currency": "EUR"}"#.utf8), adminKey: adminKey)
            #expect(try await client.pendingConfirmations().map(\.id) == [asked.id])
            let shown = try await client.confirmation(asked.id)
            #expect(shown.actionPayload == #"{"amount":4200,"currency":"EUR"}"#)
            let answered = try await client.answer(shown, .approve, signedWith: key, convention: .android)
            #expect(answered.status == "approved" && answered.deviceId == deviceId)
            do {
                try await client.answer(shown, .deny, signedWith: key, convention: .android)
                Issue.record("a confirmation was answered twice")
            } catch HaleClientError.server(let status, _, _) {
                #expect(status == 409)
            }
            #expect(try await client.pendingConfirmations().isEmpty)
            let events = try await client.securityEvents(limit: 50)
            #expect(
                events.contains { $0.deviceId == deviceId }
                    && events.map(\.sequence) == events.map(\.sequence).sorted(by: >))
            let read = try await client.confirmation(asked.id, adminKey: adminKey)
            #expect(read.decision == "approve" && read.deviceId == deviceId)

            try await client.deactivateDevice(deviceId)
            await #expect(throws: HaleClientError.self) { try await client.signIn(with: key, device) }
        }
    }

    @Test("a new phone asks; the old one approves the pushed confirmation with its key and the typed code")
    func recoveryApprovedFromAnotherDevice() async throws {
        let mail = FileManager.default.temporaryDirectory.appendingPathComponent("hale-sdk-mail-\(UUID())")
        defer { try? FileManager.default.removeItem(at: mail) }
        let environment = ["HALE_EMAIL_DIRECTORY": mail.path, "HALE_PUSH_DELIVERY_INTERVAL": "200ms"]
        try await withServer(.sqlite, environment: environment) { server, _, _ in
            let oldPhone = HaleClient(testing: server.baseURL)
            let signedUp = try await oldPhone.signUp(displayName: "Cy", with: Self.passkey())
            let key = SoftwareDeviceKey()
            let device = HaleClient.DeviceDescription(
                name: "Cy's old phone", fingerprint: "android-\(UUID().uuidString.prefix(8))", convention: .android)
            _ = try await oldPhone.registerDevice(key, device)
            try await oldPhone.signIn(with: key, device)
            try await oldPhone.requestEmailCode(for: "cy@example.com")
            _ = try await oldPhone.verifyEmail("cy@example.com", code: try await Self.code(in: mail))

            let newPhone = HaleClient(testing: server.baseURL)
            let asked = try await newPhone.requestRecoveryApproval(naming: "cy@example.com")
            let pushed = try #require(try await oldPhone.pendingConfirmations().first)
            #expect(pushed.actionType == "account.recovery" && pushed.actionPayload.contains(asked.recoveryId))
            let answered = try await oldPhone.answer(
                pushed, .approve, signedWith: key, convention: .android, pairingCode: asked.pairingCode)
            #expect(answered.status == "approved")
            let recovered = try await newPhone.claimRecovery(id: asked.recoveryId, claimToken: asked.claimToken)
            #expect(recovered == signedUp.accountId)
        }
    }

    /// The code in the newest mail Hale wrote to `directory`, waiting for the outbox to deliver it.
    private static func code(in directory: URL) async throws -> String {
        for _ in 0..<100 {
            let files =
                (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil))
                ?? []
            for file in files where file.pathExtension == "eml" {
                let text = try String(contentsOf: file, encoding: .utf8)
                if let match = text.firstMatch(of: #/Subject: ([0-9]{6}) is your /#) { return String(match.1) }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw HaleClientError.invalidArgument("no code was mailed")
    }

    @Test(arguments: TestDatabase.available)
    func consentSyncAndChallenges(database: TestDatabase) async throws {
        try await withServer(database) { server, _, _ in
            let client = HaleClient(testing: server.baseURL)
            try await client.signUp(displayName: "Cy", with: Self.passkey())
            let granted = try await client.grantHealthConsent(platform: "apple", permissions: ["steps", "distance"])
            #expect(Set(granted.map(\.permission)) == ["steps", "distance"])
            #expect(try await client.healthConsent().count == 2)
            let connection = try await client.connectHealth(provider: "healthkit", permissions: ["steps", "distance"])
            #expect(connection.isActive)
            #expect(try await client.healthConnections().map(\.provider) == [connection.provider])

            let zone = try #require(TimeZone(identifier: "Europe/Madrid"))
            let start = Date().addingTimeInterval(-3 * 3600)
            let samples = (0..<3).map { index in
                HealthKitQuantity.stepCount.sample(
                    uuid: UUID().uuidString, value: 1000, start: start + Double(index) * 600,
                    end: start + Double(index) * 600 + 300, timeZone: zone, sourceBundle: "com.apple.health",
                    deviceModel: "iPhone15,2", deviceType: "phone", userEntered: false)
            }
            let batch = UUID().uuidString
            let first = try await client.sync(provider: "healthkit", samples: samples, batchId: batch)
            #expect(first.syncLog.recordsInserted == 3 && first.rejected.isEmpty && !first.replayed)
            let again = try await client.sync(provider: "healthkit", samples: samples, batchId: batch)
            #expect(again.replayed && again.syncLog.id == first.syncLog.id)
            let changes = HealthKitChanges(samples: [], deletedIDs: [try #require(samples[0].id)], anchor: nil)
            #expect(try await client.sync(changes).syncLog.recordsDeleted == 1)
            let today = Date().formatted(.iso8601.year().month().day())
            let daily = try await client.syncDaily(platform: "apple", date: today, steps: 4200, distance: 3100)
            #expect(daily.status == "completed")
            #expect(try await client.syncLogs(limit: 10).count == 3)

            let challenge = try await client.createChallenge(
                .init(name: "November steps", type: "steps", goal: 100_000, startDate: today, endDate: today))
            #expect(try await client.challenges().map(\.id).contains(challenge.id))
            let standings = try await client.leaderboard(challenge.id)
            #expect(standings.count == 1)
            let left = try await client.leaveChallenge(challenge.id)
            #expect(!left.joined)
            #expect(try await client.joinChallenge(challenge.id).joined)
            #expect(try await client.challenge(challenge.id).memberCount == 1)

            let read = try await client.healthExport()
            // HealthKit's UUIDs are kept lowercased.
            let exported = Set(read.samples.map { $0.id.lowercased() })
            let kept = samples[1...].compactMap { $0.id?.lowercased() }
            #expect(exported.isSuperset(of: kept), "the SDK reads the server's own records")
            #expect(!exported.contains(try #require(samples[0].id?.lowercased())), "a deleted sample is not exported")
            #expect(read.dailyTotals.contains { $0.type == "steps" && $0.value > 0 })

            let revoked = try await client.revokeHealthConsent(.permission("distance", platform: "apple"))
            #expect(revoked.map(\.permission) == ["distance"])
            try await client.disconnectHealth(provider: "healthkit")
            let export = try JSONSerialization.jsonObject(with: try await client.exportHealthData()) as? [String: Any]
            #expect(export?["samples"] != nil, "the export is a JSON document of the account's samples")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("account-\(UUID()).json")
            defer { try? FileManager.default.removeItem(at: file) }
            try await client.exportAccount(to: file)
            let whole = try JSONSerialization.jsonObject(with: try Data(contentsOf: file)) as? [String: Any]
            let created = (whole?["fitnessChallenges"] as? [String: Any])?["created"] as? [[String: Any]]
            #expect(created?.map { $0["id"] as? String } == [challenge.id], "the whole account's export")
            #expect((whole?["health"] as? [String: Any])?["samples"] != nil)
            try await client.deleteAllHealthData()
            // Disconnected, HealthKit takes no sync until the app connects it again (seed 004).
            do {
                _ = try await client.sync(provider: "healthkit", samples: [samples[1]])
                Issue.record("a sync went through a disconnected provider")
            } catch HaleClientError.server(let status, _, _) {
                #expect(status == 409)
            }
            _ = try await client.connectHealth(provider: "healthkit", permissions: ["steps"])
            // A bad sample is refused per sample, not as a failed request.
            var bad = samples[1]
            bad.unit = "parsecs"
            let refused = try await client.sync(provider: "healthkit", samples: [bad])
            #expect(refused.rejected.map(\.index) == [0])
        }
    }

    @Test(
        "an Apple Health export uploaded from disk is imported by the server's worker",
        arguments: TestDatabase.available)
    func appleHealthExportUpload(database: TestDatabase) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hale-sdk-imports-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withServer(database, environment: ["HALE_HEALTH_IMPORTS_DIRECTORY": directory.path]) { server, _, _ in
            let client = HaleClient(testing: server.baseURL)
            try await client.signUp(displayName: "Di", with: Self.passkey())
            _ = try await client.grantHealthConsent(platform: "apple", permissions: ["steps"])
            let firstDay = LocalDate(at: Date(), in: .gmt).adding(days: -12).description
            let file = directory.appendingPathComponent("export.zip")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let expected = try AppleHealthExportGenerator(firstDay: firstDay, days: 10, dstChange: firstDay)
                .writeZip(to: file)
            let queued = try await client.uploadAppleHealthExport(
                file, timeZone: TimeZone(identifier: "America/New_York")!)
            #expect(queued.status == "queued")
            #expect(queued.bytes == (try FileManager.default.attributesOfItem(atPath: file.path))[.size] as? Int64)
            var current = queued
            for _ in 0..<300 where !current.isFinished {
                try await Task.sleep(for: .milliseconds(200))
                current = try await client.healthImport(queued.id)
            }
            #expect(current.status == "completed", "\(String(describing: current.error))")
            #expect(current.summary.recordsRead == expected.records)
            #expect(current.summary.imported == expected.stepRecords)
            #expect(current.summary.skippedWithoutConsent == ["distance": expected.distanceRecords, "workouts": 1])
        }
    }

    @Test(arguments: TestDatabase.available)
    func attestedHealthAndStatistics(database: TestDatabase) async throws {
        let environment = ["HALE_APP_ATTEST_DEVELOPMENT_MODE": "true"]
        try await withServer(database, environment: environment) { server, _, _ in
            let client = HaleClient(testing: server.baseURL)
            try await client.signUp(displayName: "Di", with: Self.passkey())
            let attester = try await client.developmentAppAttester()
            let keyID = try await client.registerAppAttestKey(with: attester)
            let zone = try #require(TimeZone(identifier: "America/New_York"))
            let totals = DailyHealthTotals(steps: 9_000, duration: 3_600, calories: 350.5, distance: 6_400.25)
            let stored = try await client.submitHealth(
                totals, date: "2026-11-20", source: "ios_health", attestedWith: attester, keyID: keyID, timeZone: zone)
            #expect(stored.steps == 9_000 && stored.date == "2026-11-20" && !stored.replaced)
            var more = totals
            more.steps = 9_500
            let replaced = try await client.submitHealth(
                more, date: "2026-11-20", source: "ios_health", attestedWith: attester, keyID: keyID, timeZone: zone)
            #expect(replaced.replaced && replaced.steps == 9_500)

            let week = try await client.statistics(from: "2026-11-16", to: "2026-11-22", by: .day, timeZone: zone)
            #expect(week.items.count == 7 && week.summary.steps == 9_500 && week.summary.distance == 6_400.25)
            let month = try await client.statistics(from: "2026-11-01", to: "2026-11-30", by: .month, timeZone: zone)
            #expect(month.items.map(\.date) == ["2026-11"])
            _ = try await client.today(timeZone: zone)

            // A token that is no assertion is refused in seed 001's error shape, and costs no refresh: only a
            // refused bearer token does.
            let nonce = try await client.attestationNonce()
            let before = await client.sessionTokens
            do {
                _ = try await client.submitHealth(
                    totals, source: "ios_health", platform: "ios", nonce: nonce.nonce, attestationToken: "bm90IGNib3I=")
                Issue.record("a forged attestation token was accepted")
            } catch HaleClientError.server(let status, let code, let message) {
                #expect((400..<500).contains(status) && !code.isEmpty && !message.isEmpty)
            }
            #expect(await client.sessionTokens == before)
        }
    }

    @Test(arguments: TestDatabase.available)
    func verifiedChallengeAndProvenance(database: TestDatabase) async throws {
        try await withServer(database, environment: ["HALE_APP_ATTEST_DEVELOPMENT_MODE": "true"]) { server, _, _ in
            let client = HaleClient(testing: server.baseURL)
            try await client.signUp(displayName: "Vi", with: Self.passkey())
            let attester = try await client.developmentAppAttester()
            let attested = HealthWriteAttestation.appAttest(
                attester,
                keyID: try await client.registerAppAttestKey(
                    with: attester))
            _ = try await client.grantHealthConsent(platform: "apple", permissions: ["steps", "distance"])
            _ = try await client.connectHealth(provider: "healthkit", permissions: ["steps", "distance"])
            // Whole hours three hours back, so that no sample crosses midnight in UTC.
            let start = Date(
                timeIntervalSince1970: (Date().timeIntervalSince1970 / 3_600).rounded(.down) * 3_600
                    - 3 * 3_600)
            let day = start.formatted(.iso8601.year().month().day())
            func steps(_ minute: Int, _ value: Double, from deviceType: String) -> HealthSyncSample {
                HealthKitQuantity.stepCount.sample(
                    uuid: UUID().uuidString, value: value, start: start + Double(minute) * 60,
                    end: start + Double(minute + 5) * 60, timeZone: .gmt, sourceBundle: "com.apple.health",
                    deviceModel: nil, deviceType: deviceType, userEntered: false)
            }
            let challenge = try await client.createChallenge(
                .init(
                    name: "Phones only", type: "steps", goal: 10_000, startDate: day, endDate: day, verified: true,
                    verifiedSources: ["phone"]))
            #expect(challenge.verified && challenge.verifiedSources == ["phone"])
            _ = try await client.sync(
                provider: "healthkit", samples: [steps(0, 1_000, from: "phone"), steps(10, 1_000, from: "phone")],
                attestation: attested)
            _ = try await client.sync(
                provider: "healthkit", samples: [steps(20, 400, from: "watch")], attestation: attested)
            _ = try await client.sync(provider: "healthkit", samples: [steps(30, 500, from: "phone")])

            let shown = try await client.challenge(challenge.id)
            #expect(shown.progress == 2_000, "only the attested phone's steps count")
            let excluded = try #require(shown.excluded)
            #expect(excluded.unattested == 1 && excluded.sourceNotAllowed == 1 && excluded.total == 2)
            #expect(excluded.implausibleDays.isEmpty)
            #expect(try await client.leaderboard(challenge.id).map(\.verified) == [true])

            let statements = try await client.healthProvenance(from: day, through: day)
            #expect(statements.map(\.date) == [day])
            let parts = try #require(statements.first?.statement).split(separator: ".").map(String.init)
            let header = try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(parts[0])))
            #expect((header as? [String: Any])?["typ"] as? String == "hale-provenance+jwt")
            let claims = try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(parts[1])))
            #expect((claims as? [String: Any])?["day"] as? String == day)
            #expect((claims as? [String: Any])?["sub"] as? String == (try await client.account().id))

            let bundle = try JSONSerialization.jsonObject(with: try await client.fhirBundle(from: day, through: day))
            let resources = ((bundle as? [String: Any])?["entry"] as? [[String: Any]] ?? [])
                .compactMap { ($0["resource"] as? [String: Any])?["resourceType"] as? String }
            #expect(resources.contains("Observation") && resources.contains("Provenance"))
            let points = try JSONSerialization.jsonObject(
                with: try await client.openMHealthDataPoints(from: day, through: day))
            let dataPoints = (points as? [String: Any])?["dataPoints"] as? [Any]
            #expect(dataPoints?.isEmpty == false)
            let export = try JSONSerialization.jsonObject(with: try await client.exportHealthDataWithProvenance())
            #expect(((export as? [String: Any])?["provenance"] as? [Any])?.count == 1)
        }
    }

    @Test func socialSignIn() async throws {
        let provider = try await FakeSocialProvider.start()
        var environment: [String: String] = [:]
        for (path, value) in provider.settings {
            environment[try #require(ConfigKey.named(path)).environmentVariable] = value
        }
        try await withServer(.sqlite, environment: environment) { server, _, _ in
            let client = HaleClient(testing: server.baseURL)
            let signedIn = try await client.signIn(.google, token: try provider.googleIDToken(subject: "g-sdk"))
            #expect(signedIn.role == "client")
            #expect(try await client.account().role == "client")

            let profile = HaleClient.CleanerProfile(
                phone: "+962792002802", availableDays: [.monday, .friday], timeSlots: [.morning], maxHoursPerWeek: 20,
                acceptsUrgentOffers: true, yearsOfExperience: 3, hasCleaningSupplies: true, comfortableWithPets: false,
                serviceRadius: 15)
            let cleaner = HaleClient(testing: server.baseURL)
            let hired = try await cleaner.signIn(
                .google, token: try provider.googleIDToken(subject: "g-cleaner", email: "cleaner@example.com"),
                role: .cleaner(profile),
                previousServices: [1, 2], preferredServices: [3], deviceTokens: ["fcm-cleaner"])
            #expect(hired.role == "cleaner")
            #expect(try await cleaner.account().role == "cleaner")
            var unsigned = profile
            unsigned.phone = "0792002802"
            do {
                try await HaleClient(testing: server.baseURL).signIn(
                    .google, token: try provider.googleIDToken(subject: "g-other", email: "other@example.com"),
                    role: .cleaner(unsigned))
                Issue.record("a phone number that is not E.164 was accepted")
            } catch HaleClientError.server(let status, _, let message) {
                #expect(status == 422 && message.contains("E.164"))
            }
            do {
                try await client.signIn(.facebook, token: "EAAunknown")
                Issue.record("an unknown Facebook token signed in")
            } catch HaleClientError.server(let status, let code, let message) {
                #expect(status == 401 && !code.isEmpty && !message.isEmpty)
            }
        }
        await provider.stop()
    }

    /// Runs `body` against a fresh `hale serve` on `database`, stopping it and disposing the database after.
    @Test("the SDK binds its session to its App Attest key without the app noticing; a copied token is refused")
    func boundSession() async throws {
        let binding = ["HALE_APP_ATTEST_DEVELOPMENT_MODE": "true", "HALE_TOKENS_BIND_TO_ATTESTATION": "attested"]
        try await withServer(.sqlite, environment: binding) { server, _, _ in
            let client = HaleClient(testing: server.baseURL)
            try await client.signUp(displayName: "Bo", with: Self.passkey())
            let signedUp = try #require(await client.sessionTokens)
            #expect(signedUp.attestationNonce != nil, "a binding server gives the next refresh's nonce")
            _ = try await client.registerAppAttestKey(with: try await client.developmentAppAttester())
            // The first refresh asserts with the registered key, which binds the session; the next ones go on.
            let bound = try await client.refreshSession()
            #expect(bound.attestationNonce != signedUp.attestationNonce)
            _ = try await client.refreshSession()
            #expect(try await client.account().id.isEmpty == false)

            let copied = try #require(await client.sessionTokens)
            let thief = HaleClient(testing: server.baseURL)
            await thief.restore(copied)
            await #expect(throws: HaleClientError.notSignedIn) { try await thief.refreshSession() }
            await #expect(throws: HaleClientError.notSignedIn, "the session ended, the owner's too") {
                try await client.refreshSession()
            }
        }
    }

    private func withServer(
        _ database: TestDatabase, environment extra: [String: String] = [:],
        _ body: (RunningHale, HaleExecutable, [String: String]) async throws -> Void
    ) async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await database.provision()
        let environment = extra.merging(["HALE_DATABASE_URL": url]) { $1 }
        let server = try await hale.serve(environment: environment)
        do {
            try await body(server, hale, environment)
        } catch {
            await server.stop()
            await dispose()
            throw error
        }
        await server.stop()
        await dispose()
    }

    /// An admin API key made with `hale admin-keys create`, on the server's database.
    private static func adminKey(_ hale: HaleExecutable, _ environment: [String: String]) async throws -> String {
        let made = try await hale.run(["admin-keys", "create", "--name", "sdk tests"], environment: environment)
        let created = try JSONSerialization.jsonObject(with: Data(made.output.utf8)) as? [String: Any]
        return try #require(created?["key"] as? String)
    }
}
