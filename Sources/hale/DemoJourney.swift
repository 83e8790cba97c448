import Foundation
import HaleClient

/// The steps of `hale demo`, run in order against one client; each returns what it achieved, in a line.
final class DemoJourney {
    private let client: HaleClient
    private let phone: SoftwarePasskeyAuthenticator
    private let laptop: SoftwarePasskeyAuthenticator
    private let newPhone: SoftwarePasskeyAuthenticator
    private let deviceKey = SoftwareDeviceKey()
    private let timeZone = TimeZone.current
    private var accountID = ""

    init(client: HaleClient, origin: URL) {
        self.client = client
        let rpID = origin.host ?? "localhost"
        let originText =
            origin.absoluteString.hasSuffix("/") ? String(origin.absoluteString.dropLast()) : origin.absoluteString
        phone = SoftwarePasskeyAuthenticator(SoftwarePasskey(rpID: rpID, origin: originText))
        laptop = SoftwarePasskeyAuthenticator(SoftwarePasskey(rpID: rpID, origin: originText))
        newPhone = SoftwarePasskeyAuthenticator(SoftwarePasskey(rpID: rpID, origin: originText))
    }

    /// Runs every step, reporting each; false at the first that fails.
    func run(report: (String) -> Void) async -> Bool {
        let steps: [(String, () async throws -> String)] = [
            ("Create an account, signing up with a software passkey", createAccount),
            ("Register a second passkey and sign in with it", passkeySignIn),
            ("Register a device key, sign in with it and refresh", deviceKeySignIn),
            ("Get a nonce and upload attested health data (development attestation)", attestedUpload),
            ("Sync samples", syncSamples),
            ("Read statistics", readStatistics),
            ("Lose every device: recover with a recovery code and add a passkey on a new phone", recover),
            ("Bind the session to this app's App Attest key; a copied refresh token is refused", bindSession),
        ]
        for (index, (title, step)) in steps.enumerated() {
            report("[\(index + 1)/\(steps.count)] \(title)")
            do {
                report("      ok: \(try await step())")
            } catch {
                report("      FAILED: \(error)")
                return false
            }
        }
        return true
    }

    private func createAccount() async throws -> String {
        let registered = try await client.signUp(
            displayName: "Hale demo", with: phone, device: PasskeyDevice(platform: "ios", deviceName: "Demo phone"))
        accountID = registered.accountId ?? ""
        return "account \(accountID), passkey \(registered.passkey.id) (\(registered.passkey.attestationFormat))"
    }

    private func passkeySignIn() async throws -> String {
        let added = try await client.addPasskey(with: laptop, device: PasskeyDevice(platform: "web"))
        try await client.signOut()
        try await client.signIn(with: laptop)
        let account = try await client.account()
        guard account.id == accountID else { throw DemoFailure("signed in as \(account.id), not \(accountID)") }
        return "passkey \(added.id) registered; signed out, then signed in with it as \(account.id)"
    }

    private func deviceKeySignIn() async throws -> String {
        let device = HaleClient.DeviceDescription(
            name: "Demo phone", fingerprint: "hale-demo-\(UUID().uuidString)", convention: .iOS)
        let deviceID = try await client.registerDevice(deviceKey, device)
        let signedIn = try await client.signIn(with: deviceKey, device)
        let refreshed = try await client.refreshSession()
        guard refreshed.refreshToken != signedIn.refreshToken else { throw DemoFailure("the refresh token was kept") }
        return "device \(deviceID) registered; signed in with its key; refreshed, with a new refresh token"
    }

    private func recover() async throws -> String {
        let codes = try await client.createRecoveryCodes()
        // The new phone knows nothing of the old one's session: only the code, which names the account.
        let recovered = try await client.recover(withCode: codes[0])
        guard recovered == accountID else { throw DemoFailure("the code recovered \(recovered), not \(accountID)") }
        let added = try await client.addPasskey(with: newPhone, device: PasskeyDevice(platform: "ios"))
        try await client.signIn(with: newPhone)
        let remaining = try await client.remainingRecoveryCodes()
        return "\(codes.count) codes made; one recovered the account and added passkey \(added.id),"
            + " which signed in; \(remaining) codes left"
    }

    private func attestedUpload() async throws -> String {
        let attester = try await client.developmentAppAttester()
        let keyID = try await client.registerAppAttestKey(with: attester)
        let totals = DailyHealthTotals(steps: 8_432, duration: 3_900, calories: 412.5, distance: 6_180.25)
        let stored = try await client.submitHealth(
            totals, date: Self.day(0, in: timeZone), source: "hale_demo", attestedWith: attester, keyID: keyID,
            timeZone: timeZone)
        let key = "App Attest key \(keyID.prefix(12))… attested and registered"
        return "\(key); \(stored.steps) steps stored for \(stored.date) with an assertion over a fresh nonce"
    }

    private func syncSamples() async throws -> String {
        try await client.connectHealth(provider: "healthkit", permissions: ["steps", "distance"])
        let now = Date()
        let samples = (1...12).map { (hour: Int) -> HealthSyncSample in
            let start = now.addingTimeInterval(-3_600 * Double(hour))
            return HealthKitQuantity.stepCount.sample(
                uuid: UUID().uuidString, value: Double(200 + 10 * hour), start: start, end: start + 1_800,
                timeZone: timeZone, sourceBundle: "com.apple.health", deviceModel: "iPhone15,2", deviceType: "phone",
                userEntered: false)
        }
        let first = try await client.sync(provider: "healthkit", samples: samples, syncType: "initial")
        let again = try await client.sync(provider: "healthkit", samples: samples, syncType: "manual")
        let (inserted, deduplicated) = (first.syncLog.recordsInserted, again.syncLog.recordsDeduplicated)
        return "\(inserted) samples inserted; sent again, \(deduplicated) recognised as already stored"
    }

    private func readStatistics() async throws -> String {
        let week = try await client.statistics(
            from: Self.day(-6, in: timeZone), to: Self.day(0, in: timeZone), by: .day, timeZone: timeZone)
        let today = try await client.today(timeZone: timeZone)
        let summary = week.summary
        return "\(week.items.count) days, \(summary.date): \(summary.steps) steps, \(summary.distance) m; "
            + "today \(today.steps) steps"
    }

    /// With `tokens.bindToAttestation` on, the SDK asserts each refresh with the key `attestedUpload` registered,
    /// which binds the session to it; a copy of its refresh token, without the key, ends the session instead.
    private func bindSession() async throws -> String {
        guard let before = await client.sessionTokens, before.attestationNonce != nil else {
            return "skipped: the server does not bind sessions (run it with HALE_TOKENS_BIND_TO_ATTESTATION=attested)"
        }
        let refreshed = try await client.refreshSession()
        guard let jkt = Self.confirmationKey(of: refreshed.accessToken) else {
            throw DemoFailure("the refreshed access token names no key (cnf.jkt)")
        }
        let copy = HaleClient(baseURL: client.baseURL)
        await copy.restore(refreshed)
        do {
            _ = try await copy.refreshSession()
            throw DemoFailure("a copy of the refresh token refreshed without the key")
        } catch HaleClientError.notSignedIn {}
        try await client.signIn(with: newPhone)
        return "refreshed with an App Attest assertion: the access token names the key (cnf.jkt \(jkt.prefix(12))…);"
            + " a copy of the refresh token without the key was refused and ended that session; signed in again"
    }

    /// The `cnf.jkt` claim of an access token, read without verifying it: the demo only shows it.
    static func confirmationKey(of accessToken: String) -> String? {
        let parts = accessToken.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let confirmation = claims["cnf"] as? [String: Any]
        else {
            return nil
        }
        return confirmation["jkt"] as? String
    }

    /// The local day `offset` days from today, `YYYY-MM-DD`.
    private static func day(_ offset: Int, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let date = calendar.date(byAdding: .day, value: offset, to: Date()) ?? Date()
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}

/// A step whose answer was not what the journey expects.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
